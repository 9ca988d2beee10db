import Foundation
import Testing

/// A mistyped command or flow gets the one that was meant, not a puzzle.
@Suite("Typos in commands and flow names", .hangGuard)
struct TypoCLITests {
    @Test("a mistyped command is named with the nearest one; an unknown word lists the commands; a real command still runs")
    func command() throws {
        let typo = try CLIRunner.run(["lgo", "good"], in: repositoryRoot)
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("Error: unknown command 'lgo'. Did you mean 'log'?"), "\(typo.stderr)")
        let other = try CLIRunner.run(["hsitory"], in: repositoryRoot)
        #expect(other.stderr.contains("Did you mean 'history'?"), "\(other.stderr)")
        let unknown = try CLIRunner.run(["bananas"], in: repositoryRoot)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown command 'bananas'. The commands are: run, resume, log,"), "\(unknown.stderr)")
        #expect(try CLIRunner.run(["help", "log"], in: repositoryRoot).stdout.contains("USAGE: reflect log"))
        #expect(try CLIRunner.run(["--help"], in: repositoryRoot).status == 0)
    }

    @Test("a mistyped flow family names the family and its --mood; a mistyped id names the id")
    func flow() throws {
        let family = try CLIRunner.run(["run", "reflektion", "--answers", "-"], in: repositoryRoot)
        #expect(family.status == 1)
        #expect(family.stderr.contains("did you mean 'reflection', a family of flows chosen by mood? add --mood (average, bad, good, great, horrible)"),
                "\(family.stderr)")
        let id = try CLIRunner.run(["run", "jornal.moment", "--answers", "-"], in: repositoryRoot)
        #expect(id.stderr.contains("did you mean 'journal.moment'?"), "\(id.stderr)")
    }
}
