/// One thing the probe tries, and what happened.
struct Attempt: Codable {
    enum Expectation: String, Codable { case denied, allowed }
    enum Outcome: String, Codable { case denied, allowed, skipped }

    var name: String
    /// What a confined app should see.
    var expect: Expectation
    var outcome: Outcome
    /// The errno of a denial (0 when allowed or skipped).
    var errno: Int32
    var detail: String
    /// The Landlock ABI from which the kernel can enforce the expectation.
    var minimumABI: Int
}

/// Runs attempts and collects their outcomes.
struct AttemptLog {
    var attempts: [Attempt] = []

    /// Tries `action` (0 or an errno) unless the precondition fails.
    mutating func attempt(_ name: String, expect: Attempt.Expectation, minimumABI: Int = 1,
                          skipUnless precondition: Bool = true, _ detail: String, _ action: () -> Int32) {
        guard precondition else {
            attempts.append(Attempt(name: name, expect: expect, outcome: .skipped, errno: 0,
                                    detail: "not applicable here: \(detail)", minimumABI: minimumABI))
            return
        }
        let error = action()
        attempts.append(Attempt(name: name, expect: expect, outcome: error == 0 ? .allowed : .denied,
                                errno: error, detail: error == 0 ? detail : "\(detail): \(Platform.describe(error))",
                                minimumABI: minimumABI))
    }
}
