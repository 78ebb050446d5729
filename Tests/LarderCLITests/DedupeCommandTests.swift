import Foundation
import LarderTestSupport
import Testing
