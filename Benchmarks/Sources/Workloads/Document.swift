import Foundation

/// A preference document, as the exact bytes every operation reads: the two documents of
/// issue 7, the large documents of issue 14, and a hostile upload.
public struct Document: Sendable {
    /// A short label, `12-key` or `2-key`.
    public let name: String
    /// The JSON text.
    public let json: String
    /// The same text as `Data`, the input of both `JSONSerialization` and `Preferences(json:)`.
    public let data: Data

    /// Creates a document from its JSON text.
    public init(name: String, json: String) {
        self.name = name
        self.json = json
        self.data = Data(json.utf8)
    }

    /// The 12-key document (227 bytes), a typical stored EPUB profile.
    public static let twelveKeys = Document(
        name: "12-key",
        json: #"{"fontSize":1.2,"theme":"dark","publisherStyles":false,"wordSpacing":0.2,"#
            + #""letterSpacing":0.1,"lineHeight":1.5,"textAlign":"justify","columnCount":"1","#
            + #""pageMargins":1.5,"fontFamily":"Literata","textColor":1184274,"scroll":false}"#
    )

    /// The 2-key document (32 bytes), a first-run profile.
    public static let twoKeys = Document(name: "2-key", json: #"{"fontSize":1.4,"theme":"sepia"}"#)

    /// Both documents, in the order the tables list them.
    public static let all = [twelveKeys, twoKeys]

    /// Every EPUB key (27) with a valid value, then `unknown` keys of the app's own
    /// (`"myApp.setting0": 0`, ...): a profile an app has grown into (issue 14). Named `27+N`.
    public static func wide(unknown: Int) -> Document {
        var json =
            #"{"backgroundColor":16777215,"columnCount":"1","fit":"auto","fontFamily":"Literata","#
            + #""fontSize":1.2,"fontWeight":1.0,"hyphens":true,"imageFilter":"darken","language":"en","#
            + #""letterSpacing":0.1,"ligatures":true,"lineHeight":1.5,"offsetFirstPage":false,"#
            + #""pageMargins":1.5,"paragraphIndent":1,"paragraphSpacing":0.5,"publisherStyles":false,"#
            + #""readingProgression":"ltr","scroll":false,"spread":"auto","textAlign":"justify","#
            + #""textColor":1184274,"textNormalization":false,"theme":"dark","typeScale":1.2,"#
            + #""verticalText":false,"wordSpacing":0.2"#
        for index in 0..<unknown {
            json += ",\"myApp.setting\(index)\":\(index)"
        }
        return Document(name: "27+\(unknown)", json: json + "}")
    }

    /// The large documents: 27 keys plus 100, 1,000 and 10,000 unknown keys.
    public static let wide = [wide(unknown: 100), wide(unknown: 1_000), wide(unknown: 10_000)]

    /// A stored document of about 1 MiB: 27 keys plus 40,000 unknown keys (issue 29's form goal).
    public static let megabyte = wide(unknown: 40_000)

    /// A hostile upload of about 1 MB (issue 11): 35,000 keys, each written twice, so every
    /// member after the first half is a duplicate. Linear code decodes and diagnoses it in a few
    /// times A; quadratic duplicate detection took minutes.
    public static let adversarial: Document = {
        var json = "{"
        for round in 0..<2 {
            for key in 0..<35_000 {
                if round + key > 0 { json += "," }
                json += "\"app.key\(key)\":\(key)"
            }
        }
        return Document(name: "adversarial-1MB", json: json + "}")
    }()

    /// Every document a tool can name.
    public static let every = all + wide + [megabyte, adversarial]

    /// The document with this name, if any.
    public static func named(_ name: String) -> Document? {
        every.first { $0.name == name }
    }
}
