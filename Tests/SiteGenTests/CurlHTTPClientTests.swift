import EventHTTP
import Foundation
import Testing

@testable import SiteGen

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The HTTP client (libcurl)")
struct CurlHTTPClientTests {
    @Test(
        "answers without end to several requests at once are each stopped at the limit, counted after gzip",
        arguments: [false, true])
    func endlessAnswers(gzip: Bool) async throws {
        let server = try EndlessServer(gzip: gzip)
        let client = CurlHTTPClient(limit: 1 << 20)
        let url = "http://127.0.0.1:\(server.port)/3/movie/1"
        let errors = await withTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var request = URLRequest(url: URL(string: url)!)
                    request.timeoutInterval = 60
                    do {
                        _ = try await client.send(request)
                        return "answered"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let tooLarge = MetadataError.malformed("the answer from \(url) is larger than 1 MB, the most sitegen takes")
        #expect(errors == Array(repeating: "\(tooLarge)", count: 4))
        // Each connection was closed once the limit was passed: what the server got out is the
        // limit and the sockets' buffers (URLSession went on reading, gigabytes of it, as its
        // delegate heard of each piece only after it was queued).
        for _ in 0..<100 where server.bytesSent.count < 4 { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(server.bytesSent.count == 4)
        #expect(server.bytesSent.allSatisfy { $0 < 24 << 20 }, "\(server.bytesSent)")
    }

    @Test("a head-only client (the link check) takes an answer's status and stops at its body, however long")
    func headOnly() async throws {
        let server = try EndlessServer(gzip: false)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/trailer.mp4")!)
        request.timeoutInterval = 30
        let answer = try await CurlHTTPClient(limit: 1 << 20, headOnly: true).send(request)
        #expect(answer.response.statusCode == 200)
        #expect(answer.data.isEmpty)
        for _ in 0..<100 where server.bytesSent.isEmpty { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(server.bytesSent.count == 1 && server.bytesSent[0] < 24 << 20, "\(server.bytesSent)")
    }

    @Test(
        "a redirect to another host or port drops every header but Accept and User-Agent; one on the same server keeps them"
    )
    func redirectsDropCredentials() async throws {
        let first = try FakeProviders()
        let other = try FakeProviders()
        first.route("/away", .redirect("\(other.url)/there"))
        first.route("/near", .redirect("/here"))
        for fake in [first, other] {
            fake.route("/there", .json("{}"))
            fake.route("/here", .json("{}"))
        }
        let client = CurlHTTPClient()
        for path in ["/away", "/near"] {
            var request = URLRequest(url: URL(string: first.url + path)!)
            request.setValue("Bearer SECRET", forHTTPHeaderField: "Authorization")
            request.setValue("also-secret", forHTTPHeaderField: "X-Naver-Client-Secret")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let answer = try await client.send(request)
            #expect(answer.response.statusCode == 200)
            #expect(answer.response.value(forHTTPHeaderField: "content-type") == "application/json;charset=utf-8")
        }
        let away = try #require(other.requests.first)
        #expect(away.path == "/there")
        #expect(away.headers["authorization"] == nil && away.headers["x-naver-client-secret"] == nil)
        #expect(away.headers["accept"] == "application/json")
        #expect(away.headers["user-agent"] == "sitegen/\(SiteGenVersion.current)")
        let near = try #require(first.requests.last)
        #expect(near.path == "/here")
        #expect(near.headers["authorization"] == "Bearer SECRET")
        #expect(near.headers["x-naver-client-secret"] == "also-secret")
        // Compressed answers are asked for (and undone before the limit counts them).
        #expect(near.headers["accept-encoding"]?.contains("gzip") == true, "\(near.headers)")
    }

    @Test("only http and https are fetched, asked for or redirected to; a redirect loop ends")
    func schemesAndLoops() async throws {
        let fake = try FakeProviders()
        fake.route("/ftp", .redirect("ftp://127.0.0.1:\(try unusedPort())/x.png"))
        fake.route("/loop", .redirect("/loop"))
        let client = CurlHTTPClient()
        func failure(_ url: String) async -> String {
            do {
                _ = try await client.send(URLRequest(url: URL(string: url)!))
                return "answered"
            } catch {
                return "\(error)"
            }
        }
        let port = try unusedPort()
        #expect(
            await failure("ftp://127.0.0.1:\(port)/x.png")
                == "refused to fetch ftp://127.0.0.1:\(port)/x.png: only http and https are used")
        #expect(await failure(fake.url + "/ftp").hasSuffix("/x.png: only http and https are used"))
        #expect(await failure(fake.url + "/loop") == "more than 10 redirects from \(fake.url)/loop")
        #expect(fake.targets.filter { $0 == "/loop" }.count == 11)
    }

    /// A port nothing listens on (taken and let go at once).
    private func unusedPort() throws -> Int {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _, exchange in
            exchange.respond(status: 404, headers: [], body: [])
        }
        return server.port
    }
}
