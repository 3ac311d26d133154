package io.winstats.cri.npipe;

import org.jspecify.annotations.Nullable;

/**
 * Who serves a named pipe: the server's process id ({@code GetNamedPipeServerProcessId}) and what its access token and
 * image say about it. A field the OS would not tell is {@code null}.
 *
 * @param pid the server's process id
 * @param userSid the token's user ({@code TokenUser}), as a string SID: {@code S-1-5-18} for LocalSystem
 * @param ownerSid the token's default owner ({@code TokenOwner}): {@code S-1-5-32-544} (Administrators) for an
 *     elevated administrator, the user's own SID otherwise
 * @param imagePath the executable's Win32 path ({@code QueryFullProcessImageNameW}), for the log line
 */
public record PipeServerProcess(
    long pid, @Nullable String userSid, @Nullable String ownerSid, @Nullable String imagePath) {
  @Override
  public String toString() {
    return "pid=" + pid + " user=" + userSid + " owner=" + ownerSid + " image=" + imagePath;
  }
}
