package io.winstats.cri.rounds;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.CriStatsReader;

/** Opens a {@link CriStatsReader} on a runtime's endpoint; the one public class of the rounds behind it. */
public final class CriStatsReaders {
  private CriStatsReaders() {}

  /**
   * Opens a reader on {@code endpoint}. Does not connect, so it neither blocks nor fails while the runtime is down.
   *
   * @param options the call deadline, the clock, whether this host is Windows, the stats call, the inode counter,
   *     a Windows node's stats source and HNS, each set by name
   * @throws CriException with {@link CriException.Reason#UNAVAILABLE} if this platform has no transport for the
   *     endpoint (a named pipe off Windows)
   */
  public static CriStatsReader open(CriEndpoint endpoint, CriReaderOptions options) {
    return RuntimeStatsReader.open(endpoint, options);
  }
}
