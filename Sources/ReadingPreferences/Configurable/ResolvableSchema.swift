/// A schema whose resolver can be built from a publication context, app defaults and an
/// environment: what lets tools, servers and the store resolve any configurable the same way.
///
/// The package's schemas conform; an app schema whose resolver is a ``FeatureResolver`` or a
/// ``StandardResolver`` conforms with no code:
///
/// ```swift
/// extension Labs: ResolvableSchema {}
/// let resolver = Labs.resolver(publication: PublicationContext(), defaults: SettingValueTable(), environment: ReadingEnvironment())
/// ```
public protocol ResolvableSchema: SettingsSchema {
    /// The resolver for a publication, app defaults and an environment; a configurable reads
    /// what applies to it and ignores the rest (PDF the reading progression, TTS the first
    /// language, audio nothing but the defaults).
    ///
    /// - Parameters:
    ///   - publication: The publication context.
    ///   - defaults: The app defaults.
    ///   - environment: The device environment.
    /// - Returns: The resolver.
    static func resolver(
        publication: PublicationContext, defaults: SettingValueTable<Self>, environment: ReadingEnvironment
    ) -> Resolver
}

extension ResolvableSchema where Resolver == FeatureResolver<Self> {
    /// A feature resolver with the defaults; the publication and environment do not apply.
    ///
    /// - Parameters:
    ///   - publication: Unused.
    ///   - defaults: The app defaults.
    ///   - environment: Unused.
    /// - Returns: The resolver.
    public static func resolver(
        publication: PublicationContext, defaults: SettingValueTable<Self>, environment: ReadingEnvironment
    ) -> Resolver {
        FeatureResolver(defaults: defaults)
    }
}

extension ResolvableSchema where Resolver == StandardResolver<Self> {
    /// A standard resolver with the defaults, reporting the publication's layout.
    ///
    /// - Parameters:
    ///   - publication: The publication context (its layout).
    ///   - defaults: The app defaults.
    ///   - environment: Unused.
    /// - Returns: The resolver.
    public static func resolver(
        publication: PublicationContext, defaults: SettingValueTable<Self>, environment: ReadingEnvironment
    ) -> Resolver {
        StandardResolver(defaults: defaults, layout: publication.layout)
    }
}

extension EPUB: ResolvableSchema {
    /// The EPUB resolver: the whole publication context and the environment apply.
    ///
    /// - Parameters:
    ///   - publication: The publication context.
    ///   - defaults: The app defaults.
    ///   - environment: The device environment.
    /// - Returns: The resolver.
    public static func resolver(
        publication: PublicationContext, defaults: SettingValueTable<EPUB>, environment: ReadingEnvironment
    ) -> Resolver {
        Resolver(publication: publication, defaults: defaults, environment: environment)
    }
}

extension PDF: ResolvableSchema {
    /// The PDF resolver: the declared reading progression applies (Specs/Resolution.md §8).
    ///
    /// - Parameters:
    ///   - publication: The publication context (its reading progression).
    ///   - defaults: The app defaults.
    ///   - environment: Unused.
    /// - Returns: The resolver.
    public static func resolver(
        publication: PublicationContext, defaults: SettingValueTable<PDF>, environment: ReadingEnvironment
    ) -> Resolver {
        Resolver(readingProgression: publication.readingProgression, defaults: defaults)
    }
}

extension Audio: ResolvableSchema {}

extension TTS: ResolvableSchema {
    /// The TTS resolver: the publication language applies (Specs/Resolution.md §8).
    ///
    /// - Parameters:
    ///   - publication: The publication context (its first language).
    ///   - defaults: The app defaults.
    ///   - environment: Unused.
    /// - Returns: The resolver.
    public static func resolver(
        publication: PublicationContext, defaults: SettingValueTable<TTS>, environment: ReadingEnvironment
    ) -> Resolver {
        Resolver(publicationLanguage: publication.language, defaults: defaults)
    }
}
