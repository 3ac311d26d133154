package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.gauge;

import io.prometheus.metrics.model.snapshots.Labels;
import io.winstats.perfcounters.WindowsService;
import java.util.List;

/**
 * windows_exporter v0.31.8's service collector ({@code internal/collector/service/service.go}): its four families with
 * their names, label names and help verbatim ({@code service.go:148-171@v0.31.8}), filled as its {@code collectService}
 * fills them ({@code service.go:299-361@v0.31.8}): {@code info} 1 with the configuration's display name, account and
 * binary path; one {@code start_mode} point per start mode and one {@code state} point per state, 1 for the service's
 * own and 0 for the others (none 1 for a code the SCM does not document); {@code process} only for a service with a
 * process whose creation time was read, valued in whole Unix seconds. Served by {@link WindowsExporterSeries}, one
 * part per service the node source's service filter selects, read once per sample.
 */
final class WindowsServiceTables {
  private WindowsServiceTables() {}

  static final SeriesTable<WindowsService> SERVICE =
      SeriesTable.<WindowsService>labelled(List.of())
          .write(
              gauge(
                  "windows_service_info",
                  "A metric with a constant '1' value labeled with service information",
                  List.of("name", "display_name", "run_as", "path_name")),
              (f, family, s, l, at) ->
                  f.add(
                      family,
                      1.0,
                      Labels.of(
                          "name", s.name(), "display_name", s.displayName(), "run_as", s.runAs(), "path_name",
                          s.pathName()),
                      at))
          .write(
              gauge("windows_service_state", "The state of the service (State)", List.of("name", "state")),
              (f, family, s, l, at) -> {
                for (WindowsService.State state : WindowsService.State.values()) {
                  f.add(
                      family, state == s.state() ? 1.0 : 0.0, Labels.of("name", s.name(), "state", state.label()), at);
                }
              })
          .write(
              gauge(
                  "windows_service_start_mode",
                  "The start mode of the service (StartMode)",
                  List.of("name", "start_mode")),
              (f, family, s, l, at) -> {
                for (WindowsService.StartMode mode : WindowsService.StartMode.values()) {
                  f.add(
                      family,
                      mode == s.startMode() ? 1.0 : 0.0,
                      Labels.of("name", s.name(), "start_mode", mode.label()),
                      at);
                }
              })
          .write(
              gauge(
                  "windows_service_process",
                  "Process of started service. The value is the creation time of the process as a unix timestamp.",
                  List.of("name", "process_id")),
              (f, family, s, l, at) -> {
                Long started = FamiliesBuilder.epochSeconds(s.processStart());
                if (s.processId() != 0 && started != null) {
                  f.add(family, started, Labels.of("name", s.name(), "process_id", Long.toString(s.processId())), at);
                }
              })
          .build();
}
