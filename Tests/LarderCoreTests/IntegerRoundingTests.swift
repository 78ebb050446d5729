import LarderCore
import Testing

@Suite struct IntegerRoundingTests {
    @Test("rounding gives nil for NaN, infinity and numbers past the type's range, and rounds the rest by the rule")
    func roundingRefusesWhatTraps() {
        #expect(Int(rounding: 2.5) == 3)
        #expect(Int(rounding: 2.5, .towardZero) == 2)
        #expect(Int(rounding: -2.5, .up) == -2)
        #expect(Int(rounding: 1e300) == nil)
        #expect(Int(rounding: -1e300) == nil)
        #expect(Int(rounding: Double.infinity) == nil)
        #expect(Int(rounding: Double.nan) == nil)
        #expect(Int64(rounding: 9_223_372_036_854_775_807.0) == nil, "Int64.max as a Double is 2^63")
        #expect(Int32(rounding: 3e9) == nil)
    }

    @Test("saturating holds at the bounds and makes NaN 0")
    func saturatingHoldsAtBounds() {
        #expect(Int64(saturating: 1e300) == .max)
        #expect(Int(saturating: -Double.infinity) == .min)
        #expect(Int(saturating: Double.nan) == 0)
        #expect(UInt64(saturating: -1.0) == 0)
        #expect(Int(saturating: 41.5, .down) == 41)
    }
}
