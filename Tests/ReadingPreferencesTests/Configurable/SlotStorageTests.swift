import Foundation
import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("Slot tables: masks, sharing and copies")
struct SlotStorageTests {
    /// A value of every kind, strings long enough to live on the heap among them, so a missed
    /// retain or release shows as a crash or a wrong value.
    static func value(_ random: inout PropertyRandom) -> SettingValue? {
        switch random.next() % 8 {
        case 0: return nil
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .number(Double(random.next() % 1000) / 10)
        case 3: return .integer(Int(random.next() % 100))
        case 4: return .string("short\(random.next() % 10)")
        case 5: return .string(String(repeating: "long string on the heap ", count: 2) + "\(random.next())")
        case 6:
            return .color(
                RGBColor(rgb: Int(random.next() % 0xFF_FFFF)) ?? RGBColor(red: 0, green: 0, blue: 0))
        default: return .json(["voice": .string("v\(random.next() % 5)")])
        }
    }

    @Test(
        "random writes, copies, assignments and overlays read like a plain array",
        arguments: [1, 27, 64, 65, 100])
    func behavesLikeAnArray(count: Int) {
        var random = PropertyRandom(seed: UInt64(count))
        var tables = [SlotStorage(count: count)]
        var references: [[SettingValue?]] = [Array(repeating: nil, count: count)]
        for _ in 0..<3000 {
            let table = Int(random.next() % UInt64(tables.count))
            switch random.next() % 6 {
            case 0, 1, 2:
                let slot = Int(random.next() % UInt64(count + 2)) - 1  // out of range now and then
                let value = Self.value(&random)
                tables[table][slot] = value
                if references[table].indices.contains(slot) { references[table][slot] = value }
            case 3 where tables.count < 6:
                tables.append(tables[table])
                references.append(references[table])
            case 4:
                let other = Int(random.next() % UInt64(tables.count))
                tables[table].assign(tables[other])
                references[table] = references[other]
            default:
                let other = Int(random.next() % UInt64(tables.count))
                tables[table].overlay(tables[other])
                for (slot, value) in references[other].enumerated() where value != nil {
                    references[table][slot] = value
                }
            }
            #expect(Array(tables[table]) == references[table])
        }
        for (table, reference) in zip(tables, references) {
            #expect(Array(table) == reference)
            var visited: [Int] = []
            table.forEachValue { slot, value in
                visited.append(slot)
                #expect(reference[slot] == value)
            }
            #expect(visited == reference.indices.filter { reference[$0] != nil })
            #expect(table.isUnset == reference.allSatisfy { $0 == nil })
            for slot in -1...count {
                #expect(table.isSet(slot) == (reference.indices.contains(slot) && reference[slot] != nil))
            }
        }
    }

    @Test("a copy is independent of the table it was copied from")
    func copyOnWrite() {
        var original = SlotStorage(count: 27)
        original[3] = .string(String(repeating: "x", count: 40))
        original[4] = .number(1.5)
        var copy = original
        copy[3] = .string("changed")
        copy[5] = .bool(true)
        #expect(original[3] == .string(String(repeating: "x", count: 40)))
        #expect(original[5] == nil)
        #expect(copy[4] == .number(1.5))
        copy.assign(original)
        #expect(copy == original)
        #expect(copy[5] == nil)
    }
}
