package io.winstats.perfcounters.win32;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.WindowsService;
import io.winstats.perfcounters.win32.ServiceControlManager.EnumServiceStatusProcess;
import io.winstats.perfcounters.win32.ServiceControlManager.QueryServiceConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The services of a Windows node, read once per sample as windows_exporter v0.31.8's service collector reads them on
 * every scrape ({@code internal/collector/service/service.go}): one enumeration of every Win32 service with its status
 * and process id, then, for each service the {@link ServiceFilter} selects, its configuration and the creation time of
 * its process.
 *
 * <p><b>Failure</b>, as upstream: a failed enumeration fails the whole part ({@link NodePart#SERVICES} missing, one
 * WARN line per change of failure, one INFO line on recovery); a configuration the SCM has no file for ({@code
 * ERROR_FILE_NOT_FOUND}, {@code ERROR_MUI_FILE_NOT_FOUND}) is served zeroed; any other configuration failure leaves
 * that service out; a process whose times cannot be read leaves out only its process series. The per-service cases
 * are logged at DEBUG (upstream logs them each scrape, at WARN or DEBUG).
 *
 * <p>Not thread-safe: one sampling thread.
 */
public final class ServiceReader implements AutoCloseable {
  /** 100-nanosecond intervals between 1601-01-01 and 1970-01-01 (FILETIME's epoch and Unix's). */
  static final long FILETIME_UNIX_EPOCH = 116_444_736_000_000_000L;

  private final ServiceControlManager scm;
  private final ServiceFilter filter;
  private final Logger log;
  private final PartRead part;

  public ServiceReader(ServiceControlManager scm, ServiceFilter filter, Logger log) {
    this.scm = Objects.requireNonNull(scm, "scm");
    this.filter = Objects.requireNonNull(filter, "filter");
    this.log = Objects.requireNonNull(log, "log");
    this.part = new PartRead(NodePart.SERVICES, "services", log);
  }

  /** The filter this reader applies. */
  public ServiceFilter filter() {
    return filter;
  }

  /**
   * The selected services; on a failed enumeration an empty list and {@link NodePart#SERVICES} put in {@code missing}
   * with the reason.
   */
  public List<WindowsService> read(Map<NodePart, String> missing) {
    return part.read(this::read, missing);
  }

  private List<WindowsService> read() {
    List<WindowsService> services = new ArrayList<>();
    for (EnumServiceStatusProcess s : scm.enumServicesStatusEx()) {
      String name = s.serviceName();
      if (!filter.includes(name)) {
        continue;
      }
      QueryServiceConfig config;
      try {
        config = scm.queryServiceConfig(name);
      } catch (Win32Exception e) {
        if (e.errorCode() != Win32Exception.ERROR_FILE_NOT_FOUND
            && e.errorCode() != Win32Exception.ERROR_MUI_FILE_NOT_FOUND) {
          log.debug("event=service_config_failed service={} error=\"{}\"", name, e.getMessage());
          continue;
        }
        log.debug("event=service_config_absent service={} error=\"{}\"", name, e.getMessage());
        config = QueryServiceConfig.zero();
      }
      int pid = s.status().processId();
      services.add(
          new WindowsService(
              name,
              config.displayName(),
              config.serviceStartName(),
              config.binaryPathName(),
              WindowsService.State.of(s.status().currentState()),
              WindowsService.StartMode.of(config.startType()),
              Integer.toUnsignedLong(pid),
              pid == 0 ? null : processStart(name, pid)));
    }
    return services;
  }

  private @Nullable Instant processStart(String service, int pid) {
    try {
      return fromFileTime(scm.processCreationFileTime(pid));
    } catch (Win32Exception e) {
      // ERROR_INVALID_PARAMETER: the process ended after the enumeration (service.go:363-369@v0.31.8).
      log.debug("event=service_process_time_failed service={} pid={} error=\"{}\"", service, pid, e.getMessage());
      return null;
    }
  }

  /** A FILETIME (100 ns since 1601-01-01 UTC) as an instant. */
  static Instant fromFileTime(long fileTime) {
    long sinceUnix = fileTime - FILETIME_UNIX_EPOCH;
    return Instant.ofEpochSecond(Math.floorDiv(sinceUnix, 10_000_000L), Math.floorMod(sinceUnix, 10_000_000L) * 100);
  }

  /** Closes the port. */
  @Override
  public void close() {
    scm.close();
  }
}
