import Foundation
import ReadingPreferencesStore
import Testing

/// The times `revert --to` and the revert route read (Specs/Store.md §15.4): ISO 8601, read whole.
@Suite("Revert times: ISO 8601, read whole")
struct RevertTimeTests {
    @Test(
        "a date, or a date and a time with a zone, names its moment",
        arguments: [
            ("2026-11-29", "2026-11-29T00:00:00Z"),
            ("2026-11-29T08:43:48Z", "2026-11-29T08:43:48Z"),
            ("2026-11-29t08:43:48z", "2026-11-29T08:43:48Z"),
            ("2026-11-29T08:43:48.125Z", "2026-11-29T08:43:48.125Z"),
            ("2026-11-29T08:43:48.1Z", "2026-11-29T08:43:48.100Z"),
            ("2026-11-29T08:43:48.123456Z", "2026-11-29T08:43:48.123Z"),
            ("2026-11-29T09:43:48+01:00", "2026-11-29T08:43:48Z"),
            ("2026-11-29T09:43:48+0100", "2026-11-29T08:43:48Z"),
            ("2026-11-29T03:13:48-05:30", "2026-11-29T08:43:48Z"),
            ("2026-11-29T08:43Z", "2026-11-29T08:43:00Z"),
            ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z"),
            ("2000-03-01T00:00:00Z", "2000-03-01T00:00:00Z"),
            ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
        ])
    func reads(text: String, expected: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expectedDate = try #require(
            formatter.date(
                from: expected.contains(".")
                    ? expected : expected.replacingOccurrences(of: "Z", with: ".000Z")))
        let milliseconds = try #require(Provenance.milliseconds(iso8601: text))
        #expect(milliseconds == UInt64((expectedDate.timeIntervalSince1970 * 1000).rounded()))
        #expect(RevertPoint(text) == .time(milliseconds))
    }

    @Test(
        "a time without a zone, a field out of range or text after the time is no time, nor an entry",
        arguments: [
            "2026-11-29T08:43:48", "2026-11-29T25:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29",
            "2026-13-01", "2026-11-29 08:43:48Z", "2026-11-29T08:60:00Z", "2026-11-29T08:43:48.Z",
            "2026-11-29T08:43:48Zjunk", "2026-11-29junk", "2026-11-29T8:43:48Z",
            "2026-11-29T08:43:48+1:00", "",
        ])
    func refuses(text: String) {
        #expect(Provenance.milliseconds(iso8601: text) == nil)
        #expect(RevertPoint(text) == nil)
    }

    @Test("a moment before 1970 is 0: before anything recorded")
    func beforeTheEpoch() {
        for text in ["1969-12-31T23:59:59Z", "0159-12-19T19:02:31Z", "0000-01-01"] {
            #expect(Provenance.milliseconds(iso8601: text) == 0, "\(text)")
        }
    }

    @Test("an entry's id is an entry, and so is what is shaped as one, even with a time's tail")
    func entry() {
        #expect(RevertPoint("1764405828000-0-d40a1af098ec") == .entry("1764405828000-0-d40a1af098ec"))
        // Eight digits, then a dash: no date, so the history is asked for an entry of that id.
        #expect(Provenance.milliseconds(iso8601: "99999999-11-29T08:43:48Z") == nil)
        #expect(RevertPoint("99999999-11-29T08:43:48Z") == .entry("99999999-11-29T08:43:48Z"))
    }
}
