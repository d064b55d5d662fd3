import Foundation
import Mustache
import Testing

@testable import SiteGen

/// The CSV reader behind `sitegen import`: RFC 4180, and every malformed file reported at
/// the line and column of its problem.
@Suite("CSV reader")
struct CSVTableTests {
    func table(_ text: String) throws(Diagnostic) -> CSVTable {
        try CSVTable(Data(text.utf8), path: "diary.csv")
    }

    func error(_ text: String) -> String? {
        do {
            _ = try CSVTable(Data(text.utf8), path: "diary.csv")
            return nil
        } catch {
            return error.description
        }
    }

    @Test("quoted fields keep commas, doubled quotes and line breaks; CRLF and LF both end a row")
    func rfc4180() throws {
        let table = try table(
            "Name,Review,Tags\r\n\"Dune: Part Two\",\"He said \"\"sand\"\".\r\nTwice, even.\",\"sci-fi, epic\"\r\n"
                + "기생충,\"Line one\nline two\",\nHeat,,\"\"\n")
        #expect(table.header == ["Name", "Review", "Tags"])
        #expect(
            table.rows.map { $0.fields.map(\.text) } == [
                ["Dune: Part Two", "He said \"sand\".\r\nTwice, even.", "sci-fi, epic"],
                ["기생충", "Line one\nline two", ""],
                ["Heat", "", ""],
            ])
        #expect(table.rows.map(\.line) == [2, 4, 6])
        #expect(table.rows[1].field("Review") == CSVField(text: "Line one\nline two", line: 4, column: 5))
        #expect(table.rows[2].field("Tags") == CSVField(text: "", line: 6, column: 7))
    }

    @Test("a byte order mark is skipped, the last row needs no line break, empty lines are skipped")
    func bomAndEnds() throws {
        let table = try CSVTable(
            Data([0xEF, 0xBB, 0xBF] + Array("Name,Year\n\nParasite,2019\r\n\r\nHeat,1995".utf8)), path: "x.csv")
        #expect(table.header == ["Name", "Year"])
        #expect(table.rows.map { $0.fields.map(\.text) } == [["Parasite", "2019"], ["Heat", "1995"]])
        #expect(table.rows.map(\.line) == [3, 5])
        #expect(table.rows[0].field("Name").column == 1)
    }

    @Test("a lone CR ends a row too")
    func loneCR() throws {
        let table = try table("Name,Year\rParasite,2019\r")
        #expect(table.rows.map { $0.fields.map(\.text) } == [["Parasite", "2019"]])
        #expect(table.rows[0].line == 2)
    }

    @Test("malformed files are reported at the line and column of the problem")
    func errors() {
        #expect(error("") == "diary.csv:1:1: the file is empty: a CSV export starts with a row of column names")
        #expect(
            error("Name,Review\nParasite,\"never closed\nmore\n")
                == "diary.csv:2:10: the quoted field that starts here is never closed: a \" is missing")
        #expect(
            error("Name,Review\nParasite,a \"quote\" here\n")
                == "diary.csv:2:12: a quote inside a field that does not start with one: put the whole field in quotes and write this quote twice (\"\")"
        )
        #expect(
            error("Name,Review\nParasite,\"closed\"early\n")
                == "diary.csv:2:18: unexpected text after the closing quote of a field: a quote inside a quoted field is written twice (\"\")"
        )
        #expect(
            error("Name,Year\r\n기생충,2019,extra,more\r\n")
                == "diary.csv:2:10: this row has 4 fields, but the header has 2 (a comma too many, or a field holding a comma without quotes around it?)"
        )
        #expect(
            error("Name,Year,Rating\nParasite,2019\n") == "diary.csv:2:14: this row has 2 fields, but the header has 3")
        #expect(
            error("Name,Review,Year\nHeat,\"two\nlines\"\n")
                == "diary.csv:3:7: this row has 2 fields, but the header has 3")
        #expect(error("Name,Year,Name\n") == "diary.csv:1:11: the column \"Name\" appears twice in the header")
    }

    @Test("text that is not UTF-8 is reported at its byte")
    func notUTF8() {
        let bytes = Array("Name,Year\nParasite,2019\nAm".utf8) + [0xE9] + Array("lie,2001\n".utf8)
        #expect(
            throws: Diagnostic(
                "not valid UTF-8 text (byte 0xE9): save the file as UTF-8",
                at: SourceLocation(path: "x.csv", line: 3, column: 3))
        ) {
            try CSVTable(Data(bytes), path: "x.csv")
        }
    }

    @Test("a missing column names the header")
    func missingColumn() throws {
        let table = try table("Date,Name,Year\n")
        #expect(
            throws: Diagnostic(
                "missing the column \"Letterboxd URI\" (the header has: Date, Name, Year)",
                at: SourceLocation(path: "diary.csv", line: 1, column: 1))
        ) {
            try table.require(["Date", "Name", "Letterboxd URI"])
        }
    }
}
