package io.winstats.cri.npipe;

import java.io.IOException;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Decides whether the process serving a named pipe may be talked to, before a byte is sent. While containerd is down,
 * any local user can create {@code \\.\pipe\containerd-containerd} (a pipe name belongs to whoever creates it first)
 * and feed the daemon invented stats. containerd runs as a service under LocalSystem, so the server's token must
 * carry a trusted SID as its user or its default owner: LocalSystem ({@code S-1-5-18}) or, for a runtime started by
 * an elevated administrator, Administrators ({@code S-1-5-32-544}, the default owner of an elevated token). Well-known
 * SIDs: https://learn.microsoft.com/windows/win32/secauthz/well-known-sids.
 *
 * <p>A server whose token cannot be read is refused: trust is never assumed.
 */
public final class PipeServerTrust {
  /** NT AUTHORITY\SYSTEM. */
  public static final String LOCAL_SYSTEM = "S-1-5-18";

  /** BUILTIN\Administrators. */
  public static final String ADMINISTRATORS = "S-1-5-32-544";

  private final ServerProcessInspector inspector;
  private final Set<String> trustedSids;

  PipeServerTrust(ServerProcessInspector inspector, Set<String> trustedSids) {
    this.inspector = Objects.requireNonNull(inspector, "inspector");
    this.trustedSids = Set.copyOf(trustedSids);
  }

  /** Trusts servers running as LocalSystem or as an elevated administrator. */
  public static PipeServerTrust systemOrAdministrators(ServerProcessInspector inspector) {
    return new PipeServerTrust(inspector, Set.of(LOCAL_SYSTEM, ADMINISTRATORS));
  }

  /**
   * Returns the server if trusted.
   *
   * @param path the pipe, for the message
   * @param serverPid from {@code GetNamedPipeServerProcessId}
   * @throws UntrustedPipeException naming the pipe, the server's pid, SIDs and image, if it is not trusted or cannot
   *     be inspected
   */
  public PipeServerProcess verify(String path, long serverPid) throws UntrustedPipeException {
    PipeServerProcess server;
    try {
      server = inspector.inspect(serverPid);
    } catch (IOException e) {
      throw new UntrustedPipeException(
          path + " is served by pid=" + serverPid + ", which could not be inspected (" + e.getMessage() + ")", e);
    }
    if (isTrusted(server.userSid()) || isTrusted(server.ownerSid())) {
      return server;
    }
    throw new UntrustedPipeException(
        path + " is served by " + server + ", not by LocalSystem or Administrators: not the container runtime");
  }

  private boolean isTrusted(@Nullable String sid) {
    return sid != null && trustedSids.contains(sid);
  }
}
