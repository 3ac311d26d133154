package io.winstats.cri;

import io.winstats.cri.rounds.CriStatsReaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CriEndpointTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "unix:///run/containerd/containerd.sock, UNIX, /run/containerd/containerd.sock, 0, unix:///run/containerd/containerd.sock",
    "' unix:///var/run/crio/crio.sock ',     UNIX, /var/run/crio/crio.sock,         0, unix:///var/run/crio/crio.sock",
    "UNIX:///a,                              UNIX, /a,                              0, unix:///a",
    "tcp://127.0.0.1:1234,                   TCP,  127.0.0.1,                       1234, tcp://127.0.0.1:1234",
    "tcp://localhost:65535,                  TCP,  localhost,                       65535, tcp://localhost:65535",
    "tcp://[::1]:7,                          TCP,  ::1,                             7, tcp://[::1]:7",
    "npipe:////./pipe/containerd-containerd, NPIPE, \\\\.\\pipe\\containerd-containerd, 0, npipe:////./pipe/containerd-containerd",
    "npipe://./pipe/dockershim,              NPIPE, \\\\.\\pipe\\dockershim,         0, npipe:////./pipe/dockershim",
  })
  void parsesTheAcceptedForms(String uri, CriEndpoint.Scheme scheme, String address, int port, String canonical) {
    CriEndpoint endpoint = CriEndpoint.parse(uri);
    assertThat(endpoint.scheme()).isEqualTo(scheme);
    assertThat(endpoint.address()).isEqualTo(address);
    assertThat(endpoint.port()).isEqualTo(port);
    assertThat(endpoint.uri()).isEqualTo(canonical);
    assertThat(CriEndpoint.parse(endpoint.uri())).isEqualTo(endpoint);
  }

  @ParameterizedTest(name = "[{index}] ''{0}''")
  @ValueSource(
      strings = {
        "",
        "/run/containerd/containerd.sock",
        "unix://relative/path.sock",
        "unix://",
        "http://localhost:80",
        "tcp://localhost",
        "tcp://localhost:0",
        "tcp://localhost:70000",
        "tcp://localhost:80/path",
        "tcp://:80",
        "npipe://pipe",
        "npipe:////./notpipe/x",
        "npipe:////./pipe/",
      })
  void rejectsEverythingElseNamingTheAcceptedForms(String uri) {
    assertThatThrownBy(() -> CriEndpoint.parse(uri))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unix:///absolute/path.sock")
        .hasMessageContaining("tcp://HOST:PORT")
        .hasMessageContaining("npipe:////./pipe/NAME");
  }

  @Test
  void aNamedPipeParsesEverywhereButOpensOnlyOnWindows() {
    CriEndpoint pipe = CriEndpoint.parse("npipe:////./pipe/containerd-containerd");
    boolean windowsHost = false;
    assertThatThrownBy(() -> CriStatsReaders.open(
                    pipe, CriReaderOptions.of(Duration.ofSeconds(1), Clock.systemUTC()).withWindowsHost(windowsHost)))
        .isInstanceOfSatisfying(
            CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.UNAVAILABLE))
        .hasMessageContaining("exist only on Windows")
        .hasMessageContaining("npipe:////./pipe/containerd-containerd");
  }
}
