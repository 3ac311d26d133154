package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.SummaryAssembler;
import io.winstats.summary.SummaryAssembler.PodEphemeralStorage;
import io.winstats.summary.SummaryTypes.FsStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Each pod's ephemeral storage, the Summary's {@code ephemeral-storage} of the same snapshot served as series, on
 * Linux and Windows nodes alike: used bytes and inodes (the running containers' writable layers plus their log
 * files), and the capacity of the filesystem it is counted against (the kubelet's root filesystem). Neither the
 * kubelet nor cAdvisor serves these (kubernetes#69507), so the names are this project's own, {@code winstats_*} as
 * node_exporter's data is {@code node_*} beside its own {@code node_exporter_*}; each is the Summary field's name
 * (docs/CADVISOR.md says why not a kubelet-like name). Labels {@code namespace} and {@code pod}, which the stock
 * dashboards and kube-state-metrics join on, and {@code uid}, which keeps two sandboxes of one pod name apart (a
 * force-deleted pod's and its successor's). A figure the Summary lacks adds no series; no point has a timestamp, so
 * a pod's series end with the pod.
 */
public final class PodEphemeralStorageSeries extends PerVersionCollector {
  public PodEphemeralStorageSeries(Supplier<Snapshot> snapshots) {
    super(snapshots);
  }

  @Override
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return FAMILIES;
  }

  @Override
  MetricSnapshots build(Snapshot snapshot) {
    return series(snapshot);
  }

  /** The series of {@code snapshot}, for tests. */
  static MetricSnapshots series(Snapshot snapshot) {
    NodeSample node = snapshot.node();
    return series(node == null ? List.of() : SummaryAssembler.podEphemeralStorage(node, snapshot.runtime()));
  }

  /** The series of {@code pods}' figures. */
  static MetricSnapshots series(List<PodEphemeralStorage> pods) {
    FamiliesBuilder f = new FamiliesBuilder();
    Instant noTimestamp = null;
    for (PodEphemeralStorage pod : pods) {
      Labels l = Labels.of("namespace", pod.pod().namespace(), "pod", pod.pod().name(), "uid", pod.pod().uid());
      TABLE.add(f, pod.storage(), l, noTimestamp);
    }
    return f.build();
  }

  private static final SeriesTable<FsStats> TABLE =
      SeriesTable.<FsStats>labelled(List.of("namespace", "pod", "uid"))
          .gauge(
              "winstats_pod_ephemeral_storage_used_bytes",
              "Bytes of ephemeral storage the pod uses: its running containers' writable layers and log files"
                  + " (the kubelet Summary's ephemeral-storage usedBytes, without volumes)",
              FsStats::usedBytes)
          .gauge(
              "winstats_pod_ephemeral_storage_capacity_bytes",
              "Bytes of the filesystem the pod's ephemeral storage is counted against, the kubelet's root filesystem"
                  + " (the kubelet Summary's ephemeral-storage capacityBytes)",
              FsStats::capacityBytes)
          .gauge(
              "winstats_pod_ephemeral_storage_inodes_used",
              "Inodes the pod's running containers' writable layers and log files use"
                  + " (the kubelet Summary's ephemeral-storage inodesUsed)",
              FsStats::inodesUsed)
          .gauge(
              "winstats_pod_ephemeral_storage_inodes",
              "Inodes of the filesystem the pod's ephemeral storage is counted against"
                  + " (the kubelet Summary's ephemeral-storage inodes)",
              FsStats::inodes)
          .build();

  /** Every family, in the order a full snapshot first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES = TABLE.families();

  /** The Summary's {@code ephemeral-storage} figures not served, by {@code Record.component}, with the reason. */
  static final Map<String, String> UNSERVED =
      Map.ofEntries(
          Map.entry("FsStats.time", "no sample timestamps: a deleted pod's series end at once"),
          Map.entry(
              "FsStats.availableBytes",
              "the root filesystem's, the same for every pod: node_filesystem_avail_bytes,"
                  + " windows_logical_disk_free_bytes"),
          Map.entry("FsStats.inodesFree", "the root filesystem's, the same for every pod: node_filesystem_files_free"));
}
