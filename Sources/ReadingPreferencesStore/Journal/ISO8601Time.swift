/// Reads a time written in ISO 8601, strictly: the whole text, every field in range.
///
/// Accepted: a date, `2026-11-29` (midnight UTC), or a date and a time with a zone,
/// `2026-11-29T08:43:48Z`, `2026-11-29T08:43:48.125+01:00`, `2026-11-29T08:43+0100`. Rejected:
/// a time without a zone (whose moment depends on where it is read), a field out of range
/// (`25:00`, `02-30`), and anything after the time. Foundation's `ISO8601DateFormatter` reads a
/// date from the start of any text and ignores the rest, so a mistyped time would name another
/// moment; this reads only what it can read whole.
enum ISO8601Time {
    /// The moment `text` names, in milliseconds since 1970 (a moment before 1970 is 0: before
    /// anything a store recorded), or `nil` when `text` is not such a time.
    static func milliseconds(_ text: String) -> UInt64? {
        var reader = Reader(bytes: Array(text.utf8))
        guard let year = reader.digits(4), reader.skip("-"), let month = reader.digits(2), reader.skip("-"),
            let day = reader.digits(2), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day)
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        if reader.isAtEnd { return days < 0 ? 0 : UInt64(days) * 86_400_000 }
        guard reader.skip("T") || reader.skip("t"), let hour = reader.digits(2), reader.skip(":"),
            let minute = reader.digits(2), hour < 24, minute < 60
        else { return nil }
        var second = 0
        var millisecond = 0
        if reader.skip(":") {
            guard let value = reader.digits(2), value < 60 else { return nil }
            second = value
            if reader.skip(".") || reader.skip(",") {
                // At least one digit; the first three count, the rest are read and dropped.
                var count = 0
                while let digit = reader.digit() {
                    if count < 3 { millisecond = millisecond * 10 + digit }
                    count += 1
                }
                guard count > 0 else { return nil }
                for _ in count..<max(count, 3) { millisecond *= 10 }
            }
        }
        guard let offset = reader.zone(), reader.isAtEnd else { return nil }
        let total =
            ((days * 24 + hour) * 60 + minute - offset) * 60_000 + second * 1000 + millisecond
        return total < 0 ? 0 : UInt64(total)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                return nil
            }
            index += 1
            return Int(bytes[index - 1] - UInt8(ascii: "0"))
        }

        /// Exactly `count` digits.
        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        /// `Z`, or `±HH:MM`, `±HHMM`, `±HH`: the offset from UTC in minutes.
        mutating func zone() -> Int? {
            if skip("Z") || skip("z") { return 0 }
            let sign: Int
            if skip("+") {
                sign = 1
            } else if skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = digits(2), hours < 24 else { return nil }
            var minutes = 0
            if !isAtEnd {
                _ = skip(":")
                guard let value = digits(2), value < 60 else { return nil }
                minutes = value
            }
            return sign * (hours * 60 + minutes)
        }
    }
}
