extension SettingCatalogue {
    /// A mistake in a catalogue's declarations, found when the catalogue is built (issue 11).
    ///
    /// A catalogue with problems still works (a repeated key keeps its first declaration), but
    /// nothing is silent: ``SettingCatalogue/problems`` lists every one, and the conformance
    /// product's `CatalogueCheck` and `readingprefs catalogue` fail on them.
    ///
    /// ```swift
    /// let catalogue = SettingCatalogue([width.descriptor, width.descriptor])
    /// catalogue.problems   // [duplicateKey("width")]
    /// ```
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// Two settings have the same key; the later one is ignored (its handle would read the
        /// first one's value, and it has no row in a settings form).
        case duplicateKey(String)
        /// A `renamedFrom` alias is the key of a setting, so it can never supply a value.
        case aliasIsAKey(alias: String, key: String)
        /// A range or percent setting declares no range.
        case missingRange(key: String)
        /// A range bound, an increment or a step is NaN or infinite.
        case nonFiniteNumber(key: String)
        /// The increment is zero or negative: `increment` would never move.
        case nonPositiveIncrement(key: String, increment: Double)
        /// `suggestedSteps` is empty.
        case emptySteps(key: String)
        /// `suggestedSteps` is not strictly ascending, or a step is outside the range.
        case invalidSteps(key: String)
        /// The fallback is rejected by the setting's own coder or validator (a picker fallback
        /// outside its values, a fallback of the wrong kind).
        case fallbackNotAccepted(key: String, fallback: SettingValue)
        /// A number fallback lies outside the range, so it would be coerced.
        case fallbackOutOfRange(key: String, fallback: Double)
        /// An activator names a key the catalogue does not declare.
        case unknownKeyInActivator(key: String, names: String)
        /// A group lists a key the catalogue does not declare.
        case unknownKeyInGroup(key: String, group: String)
        /// A key is listed by two groups (or twice); it stays in the first place.
        case keyInTwoGroups(key: String, group: String)

        /// The key of the setting concerned.
        public var key: String {
            switch self {
            case .duplicateKey(let key): return key
            case .aliasIsAKey(let alias, _): return alias
            case .missingRange(let key), .nonFiniteNumber(let key), .nonPositiveIncrement(let key, _),
                .emptySteps(let key), .invalidSteps(let key), .fallbackNotAccepted(let key, _),
                .fallbackOutOfRange(let key, _), .unknownKeyInActivator(let key, _),
                .unknownKeyInGroup(let key, _), .keyInTwoGroups(let key, _):
                return key
            }
        }

        /// A one-line English description.
        public var description: String {
            switch self {
            case .duplicateKey(let key): return "\(key): declared twice; the second declaration is ignored"
            case .aliasIsAKey(let alias, let key):
                return "\(alias): renamedFrom of \(key), but also a setting's key; it never supplies a value"
            case .missingRange(let key): return "\(key): a range setting without a range"
            case .nonFiniteNumber(let key): return "\(key): a range bound, increment or step is not finite"
            case .nonPositiveIncrement(let key, let increment):
                return "\(key): the increment \(SettingValue.number(increment)) is not positive"
            case .emptySteps(let key): return "\(key): suggestedSteps is empty"
            case .invalidSteps(let key): return "\(key): suggestedSteps must ascend strictly within the range"
            case .fallbackNotAccepted(let key, let fallback):
                return "\(key): the fallback \(fallback) is not an accepted value"
            case .fallbackOutOfRange(let key, let fallback):
                return "\(key): the fallback \(SettingValue.number(fallback)) is outside the range"
            case .unknownKeyInActivator(let key, let names):
                return "\(key): its activator names \(names), which the catalogue does not declare"
            case .unknownKeyInGroup(let key, let group):
                return "\(key): listed by the group \(group), but the catalogue does not declare it"
            case .keyInTwoGroups(let key, let group):
                return "\(key): listed again by the group \(group); it stays where it was listed first"
            }
        }
    }

    /// Every declaration problem of these descriptors, in declaration order.
    static func problems(of descriptors: [SettingDescriptor], keys: KeyTable) -> [Problem] {
        var problems: [Problem] = []
        var seen = KeyTable()
        for descriptor in descriptors {
            let key = descriptor.key
            if seen[key] != nil {
                problems.append(.duplicateKey(key))
                continue
            }
            seen.insert(key, value: 0)
            for alias in descriptor.renamedFrom where keys[alias] != nil {
                problems.append(.aliasIsAKey(alias: alias, key: key))
            }
            problems += rangeProblems(descriptor)
            if let fallback = descriptor.fallback {
                if case .failure = descriptor.acceptAndValidate(fallback) {
                    problems.append(.fallbackNotAccepted(key: key, fallback: fallback))
                } else if let range = descriptor.range, let number = fallback.doubleValue,
                    !range.contains(number)
                {
                    problems.append(.fallbackOutOfRange(key: key, fallback: number))
                }
            }
            for name in activatorKeys(descriptor.activator) where keys[name] == nil {
                problems.append(.unknownKeyInActivator(key: key, names: name))
            }
        }
        return problems
    }

    private static func rangeProblems(_ descriptor: SettingDescriptor) -> [Problem] {
        let key = descriptor.key
        guard descriptor.kind.isRange else { return [] }
        guard let range = descriptor.range else { return [.missingRange(key: key)] }
        var problems: [Problem] = []
        let numbers =
            [range.lowerBound, range.upperBound] + (descriptor.suggestedSteps ?? [])
            + [descriptor.suggestedIncrement].compactMap { $0 }
        if !numbers.allSatisfy(\.isFinite) { problems.append(.nonFiniteNumber(key: key)) }
        if let increment = descriptor.suggestedIncrement, !(increment > 0) {
            problems.append(.nonPositiveIncrement(key: key, increment: increment))
        }
        if let steps = descriptor.suggestedSteps {
            if steps.isEmpty {
                problems.append(.emptySteps(key: key))
            } else if zip(steps, steps.dropFirst()).contains(where: { !($0 < $1) })
                || !steps.allSatisfy(range.contains)
            {
                problems.append(.invalidSteps(key: key))
            }
        }
        return problems
    }

    /// The keys an activator reads.
    private static func activatorKeys(_ activator: SettingActivator) -> [String] {
        activator.parts.flatMap { part -> [String] in
            switch part {
            case .requiresPreference(let key, _, _): return [key]
            case .condition(let condition): return conditionKeys(condition)
            case .none, .allOf: return []
            }
        }
    }

    private static func conditionKeys(_ condition: SettingCondition) -> [String] {
        switch condition {
        case .settingEquals(let key, _), .settingDiffers(let key, _): return [key]
        case .anyOf(let conditions): return conditions.flatMap(conditionKeys)
        default: return []
        }
    }
}
