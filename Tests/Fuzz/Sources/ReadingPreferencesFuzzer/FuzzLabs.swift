import ReadingPreferences

/// A small app-defined schema (Specs/Resolution.md §9.1): a feature with options of every kind, an alias, and a
/// picker whose values the resolver computes.
enum FuzzLabs: SettingsSchema {
    typealias Resolver = FeatureResolver<FuzzLabs>

    static let sidebar = Feature<FuzzLabs>("sidebar", title: "Sidebar", renamedFrom: ["panel"])
    static let width = sidebar.range(
        "width", title: "Width", range: 200...400, increment: 20, fallback: 280)
    static let zoom = sidebar.range(
        "zoom", title: "Zoom", range: 0.5...2.0, steps: [0.5, 0.75, 1.0, 1.5, 2.0], fallback: 1.0)
    static let edge = sidebar.picker(
        "edge", title: "Edge", values: ["left", "right"], fallback: "left", noneLabel: "Automatic")
    static let font = sidebar.picker("font", title: "Font", values: nil, fallback: nil)
    static let pinned = sidebar.toggle("pinned", title: "Pinned", renamedFrom: ["sidebar.pin"])
    static let label = sidebar.text("label", title: "Label")
    static let columns = Setting<FuzzLabs, Int>.range("columns", title: "Columns", range: 1...6)
    static let accent = Setting<FuzzLabs, RGBColor>.color("accent", title: "Accent")
    static let opacity = Setting<FuzzLabs, Double>.percent("opacity", title: "Opacity")

    static let catalogue = SettingCatalogue(
        features: [sidebar], options: [width, zoom, edge, font, pinned, label, columns, accent, opacity])

    /// The resolver, with the font picker's values computed from the edge.
    static func resolver(defaults: SettingValueTable<FuzzLabs>) -> FeatureResolver<FuzzLabs> {
        FeatureResolver(
            defaults: defaults,
            dynamicValues: [
                "sidebar.font": { settings in
                    settings[key: "sidebar.edge"] == .string("right")
                        ? [.string("Amiri"), .string("Noto \"Naskh\"")] : [.string("Literata")]
                }
            ])
    }
}
