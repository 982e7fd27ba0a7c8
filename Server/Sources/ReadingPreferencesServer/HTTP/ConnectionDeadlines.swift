import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// HTTP/1 as Hummingbird serves it, with two deadlines on connections that hold without
/// sending (Specs/Server.md §4.10), so a few clients cannot keep a server's sockets:
///
/// - **A request's head** must arrive whole within ``requestHeadTimeout`` (10 s) of its first
///   byte, and a new connection's first head within that time of connecting; otherwise the
///   server answers 408 and closes the connection. (The HTTP decoder sees a head only once it
///   is whole, so a client that sends a byte a second is closed all the same.)
/// - **A kept-alive connection** may wait ``idleTimeout`` (60 s) for its next request; then it
///   is closed.
///
/// Neither applies while a request is served: an event stream stays open for as long as its
/// heartbeat can be written.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    /// The time a request's head may take unless told otherwise.
    static let defaultRequestHeadTimeout = Duration.seconds(10)
    /// The time a kept-alive connection may wait for a request unless told otherwise.
    static let defaultIdleTimeout = Duration.seconds(60)

    let inner: HTTP1Channel
    let requestHeadTimeout: Duration
    let idleTimeout: Duration

    init(
        responder: @escaping HTTPChannelHandler.Responder, requestHeadTimeout: Duration, idleTimeout: Duration
    ) {
        inner = HTTP1Channel(
            responder: responder, configuration: .init(additionalChannelHandlers: [RequestProgress()]))
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let deadlines = ConnectionDeadlines(
            requestHeadTimeout: TimeAmount(requestHeadTimeout), idleTimeout: TimeAmount(idleTimeout))
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(deadlines, position: .first)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// What ``RequestProgress`` tells ``ConnectionDeadlines`` (an outbound user event, which goes
/// down the pipeline from the HTTP parts to the bytes).
enum RequestEvent: Sendable {
    /// A request's head was read whole.
    case head
    /// A request was read to its end.
    case end
    /// A response was written to its end.
    case responseEnd
}

/// Watches the HTTP parts, after the decoder, and tells the byte-level deadlines where the
/// connection stands.
final class RequestProgress: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: context.triggerUserOutboundEvent(RequestEvent.head, promise: nil)
        case .end: context.triggerUserOutboundEvent(RequestEvent.end, promise: nil)
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd: Bool
        if case .end = unwrapOutboundIn(data) { isEnd = true } else { isEnd = false }
        context.write(data, promise: promise)
        if isEnd { context.triggerUserOutboundEvent(RequestEvent.responseEnd, promise: nil) }
    }
}

/// The deadlines, at the connection's bytes (first in the pipeline, so it sees bytes that do
/// not make a head yet).
final class ConnectionDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let requestHeadTimeout: TimeAmount
    let idleTimeout: TimeAmount
    /// Requests whose head arrived and whose response has not ended.
    private var serving = 0
    /// Whether a request's body is being read (its bytes are not a head's).
    private var inBody = false
    /// When the head being waited for began: the connection's start, or its first byte.
    private var headSince: NIODeadline?
    /// When the connection was last active, for the idle deadline.
    private var lastActive = NIODeadline.now()
    private var timer: Scheduled<Void>?

    init(requestHeadTimeout: TimeAmount, idleTimeout: TimeAmount) {
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { started(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        started(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActive = .now()
        if serving == 0, !inBody, headSince == nil {
            headSince = .now()
            schedule(context)
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(
        context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?
    ) {
        guard let event = event as? RequestEvent else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        switch event {
        case .head:
            serving += 1
            inBody = true
            headSince = nil
        case .end:
            inBody = false
        case .responseEnd:
            serving = max(serving - 1, 0)
            lastActive = .now()
        }
        schedule(context)
        promise?.succeed()
    }

    private func started(_ context: ChannelHandlerContext) {
        guard headSince == nil, serving == 0 else { return }
        headSince = .now()
        schedule(context)
    }

    /// Sets the one timer the connection's state calls for: none while a request is served,
    /// the head's while one is awaited, the idle one otherwise.
    private func schedule(_ context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        guard serving == 0 else { return }
        let (deadline, isHead) =
            headSince.map { ($0 + requestHeadTimeout, true) } ?? (lastActive + idleTimeout, false)
        let loop = context.eventLoop.assumeIsolated()
        timer = loop.scheduleTask(deadline: deadline) { [self] in
            timer = nil
            guard serving == 0 else { return }
            if isHead {
                // 408, then close: the client learns why (RFC 9110 §15.5.9).
                let answer = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
            }
            context.close(promise: nil)
        }
    }
}

@available(*, unavailable)
extension ConnectionDeadlines: Sendable {}

@available(*, unavailable)
extension RequestProgress: Sendable {}

extension TimeAmount {
    /// A duration, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
