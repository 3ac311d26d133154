package io.winstats.cri.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.Objects;
import javax.net.SocketFactory;

/**
 * Hands gRPC's OkHttp transport a {@link ConnectionSocket} from {@code connector} for every connection it makes,
 * whatever host and port it was told: the channel's target is a placeholder, the connector knows where the runtime
 * is. OkHttp calls {@link #createSocket(InetAddress, int)} on one of its own threads and reports an {@link
 * IOException} from the connector as the connection's failure (gRPC status {@code UNAVAILABLE} with it as the cause).
 */
public final class ConnectorSocketFactory extends SocketFactory {
  private final Connector connector;
  private final String name;

  /**
   * @param name what the connector connects to ({@code unix:///run/containerd/containerd.sock}), for log lines
   */
  public ConnectorSocketFactory(Connector connector, String name) {
    this.connector = Objects.requireNonNull(connector, "connector");
    this.name = Objects.requireNonNull(name, "name");
  }

  private Socket open() throws IOException {
    return ConnectionSocket.over(connector.open(), name);
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return open();
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
    return open();
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return open();
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return open();
  }
}
