import Foundation
@testable import LarderDedupe
import Testing
