import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port), for tests of
/// the text providers: it accepts connections, reads each request, counts
/// it, and answers what the test's handler says, after an optional delay.
/// Not a mock of the client: the client under test opens real sockets.
public final class LoopbackServer: @unchecked Sendable {
    /// What to answer one request with.
    public struct Reply: Sendable {
        public var status: Int
        public var body: String
        /// Seconds to wait before answering (a slow server).
        public var delay: Double

        public init(status: Int = 200, body: String, delay: Double = 0) {
            self.status = status
            self.body = body
            self.delay = delay
        }

        /// A chat-completions reply whose message is `content`.
        public static func chat(_ content: String, delay: Double = 0) -> Reply {
            let object: [String: Any] = ["id": "test", "object": "chat.completion",
                                         "choices": [["index": 0, "message": ["role": "assistant", "content": content],
                                                      "finish_reason": "stop"]]]
            let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
            return Reply(body: String(decoding: data, as: UTF8.self), delay: delay)
        }
    }

    /// One request as received.
    public struct Received: Sendable {
        public var method: String
        public var path: String
        public var headers: [String: String]
        public var body: Data

        /// The `messages` of a chat-completions request.
        public var messages: [(role: String, content: String)] {
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                  let list = object["messages"] as? [[String: Any]] else { return [] }
            return list.map { ($0["role"] as? String ?? "", $0["content"] as? String ?? "") }
        }
    }

    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var received: [Received] = []
    private var stopped = false
    private let handler: @Sendable (Received) -> Reply

    /// The base URL a provider is configured with (`http://127.0.0.1:PORT/v1`).
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }
    /// Requests received so far.
    public var requests: [Received] { lock.withLock { received } }
    public var requestCount: Int { lock.withLock { received.count } }

    public init(_ handler: @escaping @Sendable (Received) -> Reply) throws {
        self.handler = handler
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting; connections in progress finish on their own.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if lock.withLock({ stopped }) { return }
                continue
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = read(client) else { return }
        lock.withLock { received.append(request) }
        let reply = handler(request)
        if reply.delay > 0 { Thread.sleep(forTimeInterval: reply.delay) }
        let body = Data(reply.body.utf8)
        let head = "HTTP/1.1 \(reply.status) \(reply.status == 200 ? "OK" : "Status")\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        var out = Data(head.utf8)
        out.append(body)
        out.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let n = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let n = send(client, raw.baseAddress! + offset, raw.count - offset, 0)
                #endif
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Reads the request line, headers and a Content-Length body.
    private func read(_ client: Int32) -> Received? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        var expected = 0
        while true {
            let n = recv(client, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if headerEnd == nil, let r = data.range(of: separator) {
                headerEnd = r
                let head = String(decoding: data[..<r.lowerBound], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    expected = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            if let r = headerEnd, data.count - r.upperBound >= expected { break }
        }
        guard let r = headerEnd else { return nil }
        let head = String(decoding: data[..<r.lowerBound], as: UTF8.self).split(separator: "\r\n").map(String.init)
        let requestLine = head.first?.split(separator: " ").map(String.init) ?? []
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return Received(method: requestLine.first ?? "", path: requestLine.count > 1 ? requestLine[1] : "", headers: headers,
                        body: Data(data[r.upperBound...]))
    }
}
