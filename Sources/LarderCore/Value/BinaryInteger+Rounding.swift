extension BinaryInteger {
    /// The integer a floating-point number rounds to, or `nil` when it has none in this type.
    ///
    /// `Int(_:)`, `Int64(_:)` and the other integer initializers from a floating-point value trap on
    /// NaN, on ±infinity and past the type's range, all of which a file can hold (`1e300` in JSON,
    /// `.inf` in YAML, a duration of `PT99999999999999999999H`) or arithmetic can make (a division
    /// by a scale of 0). This initializer rounds by `rule` and returns `nil` for those instead; the
    /// caller decides what an unusable number means where it reads one (a located error, an absent
    /// value, a clamped display figure).
    ///
    /// ```swift
    /// Int(rounding: 2.5)                       // 3
    /// Int(rounding: 2.5, .towardZero)          // 2
    /// Int(rounding: 1e300)                     // nil
    /// Int64(rounding: Double.nan, .up)         // nil
    /// ```
    /// - Parameters:
    ///   - value: the number to convert.
    ///   - rule: how to round a fraction; by default to the nearest integer, halves away from zero
    ///     (as `rounded()` does).
    package init?<Source: BinaryFloatingPoint>(
        rounding value: Source, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) {
        self.init(exactly: value.rounded(rule))
    }
}

extension FixedWidthInteger {
    /// The integer a floating-point number rounds to, held at this type's bounds: for figures that are
    /// shown or compared, not stored (a rate, an ETA, a TTL in milliseconds).
    ///
    /// Past the type's range (or ±infinity) the result is `max` or `min`; NaN is 0.
    ///
    /// ```swift
    /// Int64(saturating: 1e300)                 // Int64.max
    /// Int(saturating: -Double.infinity)        // Int.min
    /// ```
    /// - Parameters:
    ///   - value: the number to convert.
    ///   - rule: how to round a fraction; by default to the nearest integer, halves away from zero.
    package init<Source: BinaryFloatingPoint>(
        saturating value: Source, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) {
        if let exact = Self(rounding: value, rule) {
            self = exact
        } else {
            self = value.isNaN ? 0 : value > 0 ? .max : .min
        }
    }
}
