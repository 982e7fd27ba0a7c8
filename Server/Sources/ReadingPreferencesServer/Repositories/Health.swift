/// Whether the database answers (`/readyz`).
struct Health: Sendable {
    let database: any ServerDatabase

    /// Throws what the database throws when it does not answer.
    func check() async throws {
        _ = try await database.query("SELECT 1 AS ready", [])
    }
}
