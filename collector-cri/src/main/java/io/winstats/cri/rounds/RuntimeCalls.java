package io.winstats.cri.rounds;

import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.winstats.cri.CriException;
import io.winstats.cri.api.RuntimeServiceGrpc;
import java.net.ConnectException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The runtime service's unary and server-streaming calls with the reader's deadline, and the mapping of their {@link
 * Status} to {@link CriException}: the only place gRPC's status is interpreted. Not thread-safe on its own; the reader
 * serialises rounds.
 */
final class RuntimeCalls {
  private final RuntimeContext context;
  private final ManagedChannel channel;
  private final RuntimeServiceGrpc.RuntimeServiceBlockingStub runtime;

  RuntimeCalls(RuntimeContext context, ManagedChannel channel) {
    this.context = Objects.requireNonNull(context, "context");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.runtime = RuntimeServiceGrpc.newBlockingStub(channel);
  }

  String target() {
    return context.target();
  }

  /** Calls {@code method} with the deadline; a failure becomes an {@link RpcFailure}. */
  <T> T call(String method, Function<RuntimeServiceGrpc.RuntimeServiceBlockingStub, T> call) {
    try {
      return call.apply(context.withDeadline(runtime));
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
        channel.resetConnectBackoff();
      }
      throw new RpcFailure(method, e);
    }
  }

  /**
   * Calls the server-streaming {@code method} with the deadline over the whole stream, as the kubelet does for
   * KEP-5825's list streams, and returns the items of every message once the runtime has closed the stream. A failure
   * before the first message or after some (an error, a cancel, the deadline) becomes an {@link RpcFailure} and no
   * item is returned: a round never works on part of a list.
   */
  <R, T> List<T> stream(
      String method,
      Function<RuntimeServiceGrpc.RuntimeServiceBlockingStub, Iterator<R>> call,
      Function<R, List<T>> items) {
    Context.CancellableContext cancellable = Context.current().withCancellation();
    Context previous = cancellable.attach();
    try {
      Iterator<R> answers = call.apply(context.withDeadline(runtime));
      List<T> all = new ArrayList<>();
      while (answers.hasNext()) {
        all.addAll(items.apply(answers.next()));
      }
      return all;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
        channel.resetConnectBackoff();
      }
      throw new RpcFailure(method, e);
    } finally {
      cancellable.detach(previous);
      // A stream left before its end (an exception above) is cancelled now instead of running on to its deadline.
      cancellable.cancel(null);
    }
  }

  /** A failed call, carried up to the reader's {@code sample()} where it becomes a {@link CriException}. */
  static final class RpcFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String method;
    final transient StatusRuntimeException cause;

    RpcFailure(String method, StatusRuntimeException cause) {
      super(method + ": " + cause.getStatus(), cause, false, false);
      this.method = method;
      this.cause = cause;
    }

    Status.Code code() {
      return cause.getStatus().getCode();
    }

    /**
     * The runtime lacks the call: {@code UNIMPLEMENTED}, or {@code UNKNOWN} whose text says "not implemented".
     * containerd maps its {@code ErrNotImplemented} to {@code UNIMPLEMENTED} through {@code errdefs.ToGRPC} (1.6 on
     * Windows: "pod sandbox stats not implemented on windows"); a runtime or proxy that returns the bare Go error
     * instead reaches gRPC as {@code UNKNOWN} with the same text, and must not read as a vanished pod.
     */
    boolean isNotImplemented() {
      if (code() == Status.Code.UNIMPLEMENTED) {
        return true;
      }
      String description = cause.getStatus().getDescription();
      return code() == Status.Code.UNKNOWN
          && description != null
          && description.toLowerCase(Locale.ROOT).contains("not implemented");
    }

    /**
     * The pod or container is gone (or going), or one pod poisons the list: containerd answers NotFound, or Unknown
     * wrapping the cause (a pod without a cgroup path fails ListPodSandboxStats for all pods as Unknown). Never a
     * call that ran out of time, which asking pod by pod would only repeat 110 times.
     */
    boolean isGone() {
      return !isNotImplemented()
          && !ranOutOfTime(cause.getStatus())
          && (code() == Status.Code.NOT_FOUND || code() == Status.Code.UNKNOWN);
    }

    String summary() {
      String description = cause.getStatus().getDescription();
      return code() + (description == null ? "" : ": " + description);
    }
  }

  /**
   * The deadline passed, here or in the runtime. containerd runs ListPodSandboxStats with the call's context and wraps
   * a shim's timed-out metrics call into its answer, which reaches us as Unknown: "failed to decode sandbox container
   * metrics for sandbox ...: context deadline exceeded: unknown" (1.6.20 under load here; Go's
   * context.DeadlineExceeded text).
   */
  private static boolean ranOutOfTime(Status status) {
    String description = status.getDescription();
    return status.getCode() == Status.Code.DEADLINE_EXCEEDED
        || (status.getCode() == Status.Code.UNKNOWN
            && description != null
            && description.contains("context deadline exceeded"));
  }

  /** Maps a gRPC status to our failure reasons. */
  /**
   * The status's description and, when it has one, its cause: a failed connect reaches the caller as {@code
   * UNAVAILABLE} whose cause is what the socket or pipe said ("No such file or directory", {@code
   * ERROR_FILE_NOT_FOUND (2)}).
   */
  private static String describe(Status status) {
    String description = status.getDescription();
    Throwable cause = status.getCause();
    if (cause == null) {
      return description == null ? "" : description;
    }
    return description == null ? cause.toString() : description + " (" + cause + ")";
  }

  static CriException fault(String target, String method, StatusRuntimeException e) {
    Status status = e.getStatus();
    String description = status.getDescription() == null ? "" : status.getDescription();
    String message = "endpoint=" + target + " rpc=" + method + " code=" + status.getCode() + ": " + describe(status);
    if (isParseError(e)) {
      // grpc-java reports an answer it cannot decode as CANCELLED "Failed to read message." caused by the parse error.
      return new CriException(CriException.Reason.MALFORMED, message, e);
    }
    if (ranOutOfTime(status)) {
      return new CriException(CriException.Reason.DEADLINE_EXCEEDED, message, e);
    }
    CriException.Reason reason =
        switch (status.getCode()) {
          case UNAVAILABLE -> CriException.Reason.UNAVAILABLE;
          case DEADLINE_EXCEEDED -> CriException.Reason.DEADLINE_EXCEEDED;
          case RESOURCE_EXHAUSTED ->
              isMessageSize(description) ? CriException.Reason.MESSAGE_TOO_LARGE : CriException.Reason.RUNTIME_ERROR;
          default -> CriException.Reason.RUNTIME_ERROR;
        };
    return new CriException(reason, connectionFailure(e), message, e);
  }

  /**
   * What the transport said when the connection failed, read from the failure's causes. Unix sockets (the JDK's
   * SocketChannel): "No such file or directory", "Connection refused" (a ConnectException), "Permission denied".
   * Named pipes (WindowsPipeConnection names the Win32 error): ERROR_FILE_NOT_FOUND, ERROR_ACCESS_DENIED. A peer that
   * is not an HTTP/2 server: grpc-okhttp reads its first bytes as a frame header and fails with FRAME_SIZE_ERROR
   * ("HTTP/1.1 ..." is a 4.7 MB frame) or PROTOCOL_ERROR.
   */
  static CriException.@Nullable ConnectionFailure connectionFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
      if (t instanceof NoSuchFileException || m.contains("no such file or directory")
          || m.contains("error_file_not_found")) {
        return CriException.ConnectionFailure.ENDPOINT_MISSING;
      }
      if (t instanceof ConnectException || m.contains("connection refused")) {
        return CriException.ConnectionFailure.CONNECTION_REFUSED;
      }
      if (t instanceof AccessDeniedException || m.contains("permission denied") || m.contains("error_access_denied")) {
        return CriException.ConnectionFailure.PERMISSION_DENIED;
      }
      if (m.contains("frame_size_error") || m.contains("protocol_error")) {
        return CriException.ConnectionFailure.PROTOCOL_MISMATCH;
      }
    }
    return null;
  }

  /** grpc-java: "gRPC message exceeds maximum size 16777216: 17825792". */
  private static boolean isMessageSize(String description) {
    String d = description.toLowerCase(Locale.ROOT);
    return d.contains("exceeds maximum size") || d.contains("message too large") || d.contains("larger than max");
  }

  /**
   * An answer that does not decode: grpc-java's protobuf marshaller throws INTERNAL "Invalid protobuf byte sequence"
   * caused by the parse exception, which the client call reports as CANCELLED with that cause.
   */
  private static boolean isParseError(StatusRuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InvalidProtocolBufferException) {
        return true;
      }
    }
    String description = e.getStatus().getDescription();
    return description != null && description.toLowerCase(Locale.ROOT).contains("invalid protobuf");
  }
}
