import Foundation
import Hummingbird
import ReadingPreferences

/// The device's part of the rule context a request reads in (Specs/Server.md §4.9): the query
/// members `appearance` (`light`, `dark`), `time` (`HH:MM`, the device's local time) and
/// `deviceClass`; the publication's part (`language`, `collection`) is its publication context.
/// The server evaluates the same rules as the library, a pure function of this context.
extension Request {
    /// The rule context of the query, for a device of `deviceClass`.
    ///
    /// - Parameter deviceClass: The query's class (``deviceClass()``).
    /// - Returns: The context (light, no time, when the query says nothing).
    /// - Throws: A 400 `invalidRuleContext` problem for another appearance or a time not `HH:MM`.
    func ruleContext(deviceClass: String?) throws -> ProfileRuleContext {
        let query = uri.queryParameters
        var appearance = SystemAppearance.light
        if let text = query.get("appearance").map({ String($0) }) {
            guard let named = SystemAppearance(rawValue: text) else {
                throw Problem(.badRequest, "invalidRuleContext", "appearance is light or dark, not \(text)")
            }
            appearance = named
        }
        var minute: Int?
        if let text = query.get("time").map({ String($0) }) {
            guard let parsed = LocalTimeWindow.minuteOfDay(text) else {
                throw Problem(
                    .badRequest, "invalidRuleContext", "time is the device's local time as HH:MM, not \(text)"
                )
            }
            minute = parsed
        }
        return ProfileRuleContext(appearance: appearance, minuteOfDay: minute, deviceClass: deviceClass)
    }
}
