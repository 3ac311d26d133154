package io.winstats.cri.rounds;

import io.winstats.cri.PodSample;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.winstats.cri.api.PodSandboxStatusRequest;
import io.winstats.cri.api.PodSandboxStatusResponse;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.PodHandle;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HostProcess lookup ({@link HostProcessLookup}) against a real containerd: the verbose {@code PodSandboxStatus}
 * of a real (Linux) pod parses, says the pod is not a HostProcess one, and is asked once per sandbox on both read
 * paths, counted at the channel.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
class CriStatsReaderHostProcessIT {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  /** Counts the calls the reader makes, by method name. */
  private static final class CallCounter implements ClientInterceptor {
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    @Override
    public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
      calls.computeIfAbsent(method.getBareMethodName(), k -> new AtomicInteger()).incrementAndGet();
      return next.newCall(method, options);
    }

    int calls(String method) {
      AtomicInteger n = calls.get(method);
      return n == null ? 0 : n.get();
    }
  }

  /** A reader on the harness's socket whose every call goes through {@code counter}. */
  private static RuntimeStatsReader countingReader(ContainerdHarness harness, CallCounter counter) {
    EventLoopGroup group = harness.defer(new ClosingGroup(new EpollEventLoopGroup(1))).group();
    ManagedChannel channel =
        NettyChannelBuilder.forAddress(new DomainSocketAddress(harness.socket().toString()))
            .eventLoopGroup(group)
            .channelType(EpollDomainSocketChannel.class)
            .overrideAuthority("localhost")
            .usePlaintext()
            .intercept(counter)
            .build();
    return harness.defer(
        RuntimeStatsReader.forChannel(harness.endpoint(), channel, CALL_TIMEOUT, Clock.systemUTC(), System::nanoTime));
  }

  private record ClosingGroup(EventLoopGroup group) implements AutoCloseable {
    @Override
    public void close() {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aLinuxPodIsNotAHostProcessOneAndEachSandboxIsAskedOnce(ContainerdHarness harness, CriTestClient client)
      throws IOException {
    PodHandle pod = client.runPod("plain", "it-hostprocess", List.of(ContainerSpec.sleeper("sleep")));
    try (pod) {
      PodSandboxStatusResponse verbose =
          client.runtime()
              .podSandboxStatus(
                  PodSandboxStatusRequest.newBuilder().setPodSandboxId(pod.sandboxId()).setVerbose(true).build());
      String info = verbose.getInfoMap().get("info");
      System.out.printf("CriStatsReaderHostProcessIT containerd %s verbose sandbox info: %s%n",
          client.version(CALL_TIMEOUT), info);
      assertThat(info).as("containerd's SandboxInfo JSON").contains("\"config\":{").contains("\"linux\":{")
          .doesNotContain("\"windows\"");
      assertThat(HostProcessLookup.fromSandboxInfo(info)).isFalse();

      for (boolean containerStats : new boolean[] {false, true}) {
        CallCounter counter = new CallCounter();
        RuntimeStatsReader reader = countingReader(harness, counter);
        if (containerStats) {
          reader.useContainerStats();
        }
        for (int round = 0; round < 3; round++) {
          PodSample sample =
              reader.sample().pods().stream()
                  .filter(p -> p.sandboxId().equals(pod.sandboxId()))
                  .findFirst()
                  .orElseThrow();
          assertThat(sample.hostProcess()).as("round %d, ListContainerStats %s", round, containerStats).isFalse();
        }
        System.out.printf("CriStatsReaderHostProcessIT calls over 3 rounds (ListContainerStats %s): %s%n",
            containerStats, counter.calls);
        assertThat(counter.calls("PodSandboxStatus")).as("one verbose PodSandboxStatus per sandbox").isEqualTo(1);
      }
    }
  }
}
