// `import Larder`: the library product's modules in one import, and the home of its DocC catalog (Larder.docc).
// Each module can still be imported on its own (`import LarderFormats`) by a package that wants fewer names.
@_exported public import LarderCloudKit
@_exported public import LarderCore
@_exported public import LarderDedupe
@_exported public import LarderEmulator
@_exported public import LarderFormats
@_exported public import LarderImport
@_exported public import LarderRegistry
@_exported public import LarderStore
@_exported public import LarderSync
