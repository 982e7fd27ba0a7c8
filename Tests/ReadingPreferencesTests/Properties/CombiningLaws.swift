import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("Laws: merging and filtering (Specs/Settings.md §5, Specs/Resolution.md §6)")
struct CombiningLaws {
    @Test(
        "merging is right-biased and keeps self's order, then other's new keys",
        arguments: LawConfigurable.allCases)
    func rightBiased(_ configurable: LawConfigurable) {
        forAll("merging is right-biased", configurable.subject) { input in
            let (a, b) = (try input.document.preferences, try input.other.preferences)
            let merged = a.merging(b)
            for member in b.members {
                try ensure(merged[member.key] == member.value, "\(member.key): other's value lost")
            }
            for member in a.members where b[member.key] == nil {
                try ensure(merged[member.key] == member.value, "\(member.key): self's value lost")
            }
            let order = a.keys + b.keys.filter { a[$0] == nil }
            try ensure(LawCheck.sameKeys(merged.keys, order), "order \(merged.keys), expected \(order)")
        }
    }

    @Test("merging is associative, order included", arguments: LawConfigurable.allCases)
    func associative(_ configurable: LawConfigurable) {
        forAll("merging is associative", configurable.subject) { input in
            let (a, b, c) = (
                try input.document.preferences, try input.other.preferences, try input.third.preferences
            )
            let left = a.merging(b).merging(c)
            let right = a.merging(b.merging(c))
            try ensure(LawCheck.identical(left, right), "(a+b)+c = \(left), a+(b+c) = \(right)")
        }
    }

    @Test("Preferences() is the identity of merging, on both sides", arguments: LawConfigurable.allCases)
    func identity(_ configurable: LawConfigurable) {
        forAll("Preferences() is the identity", configurable.subject) { input in
            let p = try input.document.preferences
            try ensure(LawCheck.identical(p.merging(Preferences()), p), "p + {} differs from p")
            try ensure(LawCheck.identical(Preferences().merging(p), p), "{} + p differs from p")
        }
    }

    @Test(
        "filter(keys) and filterNot(keys) partition the entries, in order",
        arguments: LawConfigurable.allCases)
    func partition(_ configurable: LawConfigurable) {
        forAll("filter and filterNot partition", configurable.subject) { input in
            let p = try input.document.preferences
            let kept = p.filter(keys: input.keys)
            let dropped = p.filterNot(keys: input.keys)
            try ensure(
                kept.count + dropped.count == p.count, "\(kept.count) + \(dropped.count) != \(p.count)")
            try ensure(
                LawCheck.identical(kept.merging(dropped), p) || kept.merging(dropped) == p, "entries differ")
            for key in kept.keys { try ensure(LawCheck.contains(input.keys, key), "filter kept \(key)") }
            for key in dropped.keys {
                try ensure(!LawCheck.contains(input.keys, key), "filterNot kept \(key)")
            }
            try ensure(
                LawCheck.sameKeys(kept.keys, p.keys.filter { LawCheck.contains(input.keys, $0) }),
                "filter reorders")
            try ensure(
                LawCheck.sameKeys(dropped.keys, p.keys.filter { !LawCheck.contains(input.keys, $0) }),
                "filterNot reorders")
        }
    }

    @Test(
        "filterPublication(p).merging(filterShared(p)) has the same entries as p",
        arguments: LawConfigurable.allCases)
    func scopes(_ configurable: LawConfigurable) {
        Self.scopes(configurable.subject)
    }

    static func scopes<Subject: LawSubject>(_ subject: Subject) {
        forAll("publication + shared == p", subject) { input in
            let p = try input.document.preferences
            let publication = p.filterPublicationPreferences(of: Subject.Schema.self)
            let shared = p.filterSharedPreferences(of: Subject.Schema.self)
            try ensure(publication.merging(shared) == p, "\(publication) + \(shared) != \(p)")
            try ensure(publication.count + shared.count == p.count, "a key is in both scopes")
        }
    }
}
