import Foundation

/// One of the two preference documents of issue 7, as the exact bytes every operation reads.
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
    public static let every = all + [adversarial]

    /// The document with this name, if any.
    public static func named(_ name: String) -> Document? {
        every.first { $0.name == name }
    }
}
