import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client holds it without using it, where
/// Hummingbird's idle timeout does not reach:
///
/// - a request that does not arrive whole (head to end of body) within
///   `requestTimeout`: a body sent a byte at a time would otherwise keep a
///   connection busy for days, as each byte counts as activity;
/// - a client that does not read what it is sent: when the connection's
///   buffers are full, a write waits (the connection is "not writable");
///   after `writeTimeout` of that, the connection closes, and the write
///   fails. An event stream to a client that does not read ends this way,
///   and frees its slot;
/// - at a graceful shutdown, a connection whose writes wait closes at once:
///   its response would never end, and the shutdown would wait for it.
///
/// One instance per connection, on the connection's event loop; placed after
/// the HTTP codec, so that it sees request parts.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let requestTimeout: TimeAmount
    private let writeTimeout: TimeAmount
    private var requestDeadline: Scheduled<Void>?
    private var writeDeadline: Scheduled<Void>?
    private var isQuiescing = false

    init(requestTimeout: Duration, writeTimeout: Duration) {
        self.requestTimeout = TimeAmount(requestTimeout)
        self.writeTimeout = TimeAmount(writeTimeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            if requestDeadline == nil {
                requestDeadline = closeLater(context, in: requestTimeout)
            }
        case .body:
            break
        case .end:
            requestDeadline?.cancel()
            requestDeadline = nil
        }
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            writeDeadline?.cancel()
            writeDeadline = nil
        } else if isQuiescing {
            context.close(promise: nil)
        } else if writeDeadline == nil {
            writeDeadline = closeLater(context, in: writeTimeout)
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            isQuiescing = true
            if !context.channel.isWritable { context.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadlines()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadlines()
    }

    private func closeLater(_ context: ChannelHandlerContext, in delay: TimeAmount) -> Scheduled<Void> {
        let channel = context.channel
        return context.eventLoop.scheduleTask(in: delay) {
            channel.close(promise: nil)
        }
    }

    private func cancelDeadlines() {
        requestDeadline?.cancel()
        requestDeadline = nil
        writeDeadline?.cancel()
        writeDeadline = nil
    }
}

@available(*, unavailable)
extension ConnectionGuard: Sendable {}
