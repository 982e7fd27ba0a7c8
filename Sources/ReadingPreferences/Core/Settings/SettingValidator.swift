/// Checks a decoded value, coercing it or rejecting it (Specs/Settings.md §3).
public indirect enum SettingValidator: Sendable, Hashable {
    /// Accepts every value.
    case identity
    /// Coerces a number into the range (below → lower bound, above → upper bound); rejects NaN
    /// and infinities; never rejects a finite number.
    case range(ClosedRange<Double>)
    /// Accepts only the listed values.
    case allowlist([SettingValue])
    /// Runs `inner` first, then `outer` on its result; a rejection anywhere rejects.
    case combined(outer: SettingValidator, inner: SettingValidator)

    /// Returns `outer.then(inner)`: a validator that runs `inner` first, then this one.
    public func then(_ inner: SettingValidator) -> SettingValidator {
        .combined(outer: self, inner: inner)
    }

    /// A finite number coerced into a range: below → the lower bound, above → the upper bound.
    @inline(__always)
    static func coerce(_ number: Double, into range: ClosedRange<Double>) -> Double {
        min(max(number, range.lowerBound), range.upperBound)
    }

    /// Validates a value: the accepted (possibly coerced) value, or the failure.
    func validate(_ value: SettingValue) -> Result<SettingValue, ValueFailure> {
        switch self {
        case .identity:
            return .success(value)
        case .range(let range):
            switch value {
            case .number(let number):
                guard number.isFinite else { return .failure(.notANumber) }
                return .success(.number(Self.coerce(number, into: range)))
            case .integer(let number):
                let lower = Int(exactly: range.lowerBound.rounded(.up)) ?? Int.min
                let upper = Int(exactly: range.upperBound.rounded(.down)) ?? Int.max
                return .success(.integer(min(max(number, lower), upper)))
            default:
                return .failure(.typeMismatch)
            }
        case .allowlist(let allowed):
            return allowed.contains(where: { $0.matches(value) })
                ? .success(value) : .failure(.unsupportedValue)
        case .combined(let outer, let inner):
            switch inner.validate(value) {
            case .success(let innerValue): return outer.validate(innerValue)
            case .failure(let failure): return .failure(failure)
            }
        }
    }
}
