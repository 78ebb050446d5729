import LarderCore
