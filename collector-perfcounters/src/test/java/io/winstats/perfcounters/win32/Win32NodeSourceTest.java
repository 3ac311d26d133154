package io.winstats.perfcounters.win32;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.LogicalDiskInfo;
import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.WindowsService;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * {@link Win32NodeSource}: each sample carries the services, the network adapters, the volumes and the release and
 * names, each read once per sample (the release once); a failure of one is its part's alone.
 */
class Win32NodeSourceTest {
  /** A counter source whose samples lack the network part. */
  static final class CountersSource implements NodeCounterSource {
    int samples;
    boolean closed;

    @Override
    public String name() {
      return "pdh";
    }

    @Override
    public NodePlatform platform() {
      return NodePlatform.WINDOWS;
    }

    @Override
    public NodeSample sample() {
      samples++;
      return NodeSample.builder(Instant.parse("2026-11-28T12:00:00Z"), samples)
          .memory(NodeMemory.builder().availableBytes(1L << 30).build())
          .filesystems(
              List.of(FilesystemUsage.builder("C:", "C:\\", "NTFS").capacityBytes(2).availableBytes(1).build()))
          .disks(List.of(DiskIoCounters.builder("C:").build(), DiskIoCounters.builder("HarddiskVolume1").build()))
          .missing(Map.of(NodePart.NETWORK, "\\Network Interface(*)\\Bytes Received/sec PDH_CSTATUS_NO_OBJECT"))
          .build();
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  @Test
  void eachSampleCarriesTheServicesReadOnceAndTheCountersPartsAsTheyWere() {
    FakeServiceControlManager scm = FakeServiceControlManager.kubernetesNode();
    CountersSource counters = new CountersSource();
    Win32NodeSource source =
        new Win32NodeSource(
            counters, new ServiceReader(scm, new ServiceFilter("kube.*", ""), NOPLogger.NOP_LOGGER), null);

    NodeSample sample = source.sample();

    assertThat(source.name()).isEqualTo("pdh");
    assertThat(source.platform()).isEqualTo(NodePlatform.WINDOWS);
    assertThat(sample.services()).extracting(WindowsService::name).containsExactly("kube-proxy", "kubelet");
    assertThat(sample.memory()).isNotNull();
    assertThat(sample.missing()).containsOnlyKeys(NodePart.NETWORK);
    assertThat(scm.calls).filteredOn(c -> c.startsWith("Enum")).hasSize(1);

    scm.enumFails(Win32Exception.ERROR_ACCESS_DENIED);
    NodeSample failed = source.sample();
    assertThat(failed.services()).isEmpty();
    assertThat(failed.missing()).containsOnlyKeys(NodePart.NETWORK, NodePart.SERVICES);
    assertThat(failed.memory()).as("the counters' parts stay").isNotNull();

    scm.enumFails(0);
    assertThat(source.sample().services()).hasSize(2);
    assertThat(counters.samples).isEqualTo(3);

    source.close();
    assertThat(counters.closed).isTrue();
    assertThat(scm.closes).isEqualTo(1);
  }

  @Test
  void eachSampleCarriesTheAdaptersReadOnceAndTheirFailureIsTheirPartAlone() {
    FakeServiceControlManager scm = FakeServiceControlManager.kubernetesNode();
    FakeIpHelper ipHelper = FakeIpHelper.kubernetesNode();
    CountersSource counters = new CountersSource();
    Win32NodeSource source =
        new Win32NodeSource(
            counters,
            new ServiceReader(scm, new ServiceFilter("kube.*", ""), NOPLogger.NOP_LOGGER),
            new AdapterReader(ipHelper, NOPLogger.NOP_LOGGER));

    NodeSample sample = source.sample();
    assertThat(sample.adapters()).hasSize(5);
    assertThat(ipHelper.calls).hasSize(1);

    ipHelper.failing(Win32Exception.ERROR_ACCESS_DENIED);
    NodeSample failed = source.sample();
    assertThat(failed.adapters()).isEmpty();
    assertThat(failed.missing()).containsOnlyKeys(NodePart.NETWORK, NodePart.NETWORK_ADAPTERS);
    assertThat(failed.services()).as("the services stay").hasSize(2);
    assertThat(failed.memory()).as("the counters' parts stay").isNotNull();
    assertThat(ipHelper.calls).hasSize(2);
  }

  @Test
  void eachSampleCarriesTheReleaseAndTheNamesAndTheirFailureIsTheirPartAlone() {
    FakeSystemInformation system = FakeSystemInformation.windowsServer2022();
    CountersSource counters = new CountersSource();
    Win32NodeSource source =
        new Win32NodeSource(counters, null, null, null, new OsReader(system, NOPLogger.NOP_LOGGER));

    NodeSample sample = source.sample();
    assertThat(sample.windowsOs()).isNotNull();
    assertThat(sample.windowsOs().version().buildNumber()).isEqualTo(20348);
    assertThat(sample.windowsOs().hostName().hostname()).isEqualTo("akswin000000");
    assertThat(sample.missing()).containsOnlyKeys(NodePart.NETWORK);

    system.nameFails(SystemInformation.COMPUTER_NAME_DNS_HOSTNAME, Win32Exception.ERROR_ACCESS_DENIED);
    NodeSample failed = source.sample();
    assertThat(failed.windowsOs().hostName()).isNull();
    assertThat(failed.windowsOs().version()).as("the release stays").isNotNull();
    assertThat(failed.missing()).containsOnlyKeys(NodePart.NETWORK, NodePart.OS);
    assertThat(failed.memory()).as("the counters' parts stay").isNotNull();
    assertThat(system.calls).filteredOn(c -> c.equals("RtlGetVersion")).hasSize(1);
  }

  @Test
  void withoutReadersTheSampleIsTheCountersOwn() {
    CountersSource counters = new CountersSource();
    Win32NodeSource source = new Win32NodeSource(counters, null, null);

    NodeSample sample = source.sample();

    assertThat(sample.services()).isEmpty();
    assertThat(sample.adapters()).isEmpty();
    assertThat(sample.windowsOs()).isNull();
    assertThat(sample.missing()).containsOnlyKeys(NodePart.NETWORK);
    source.close();
    assertThat(counters.closed).isTrue();
  }

  @Test
  void eachSampleCarriesTheVolumesOfItsLogicalDisksAndTheirFailureIsTheirPartAlone() {
    FakeVolumeManagement volumes = FakeVolumeManagement.kubernetesNode();
    CountersSource counters = new CountersSource();
    Win32NodeSource source =
        new Win32NodeSource(counters, null, null, new VolumeReader(volumes, NOPLogger.NOP_LOGGER));

    NodeSample sample = source.sample();
    assertThat(sample.volumes())
        .containsExactly(
            new LogicalDiskInfo("C:", "0", "fixed", "Windows", "NTFS", "A1B2C3D"),
            new LogicalDiskInfo("HarddiskVolume1", "0", "fixed", "", "FAT32", "5A3C11E0"));
    assertThat(volumes.calls).filteredOn(c -> c.startsWith("FindFirstVolume")).hasSize(1);

    volumes.findFails(Win32Exception.ERROR_ACCESS_DENIED);
    NodeSample failed = source.sample();
    assertThat(failed.volumes()).isEmpty();
    assertThat(failed.missing()).containsOnlyKeys(NodePart.NETWORK, NodePart.VOLUMES);
    assertThat(failed.disks()).as("the counters' parts stay").hasSize(2);
    assertThat(volumes.calls).filteredOn(c -> c.startsWith("FindFirstVolume")).hasSize(2);
  }

  @Test
  void theLogicalDisksAreTheInstancesOfTheIoCountersAndOfTheSpace() {
    NodeSample sample =
        NodeSample.builder(Instant.EPOCH, 0)
            .filesystems(List.of(FilesystemUsage.builder("D:", "D:\\", "NTFS").build()))
            .disks(List.of(DiskIoCounters.builder("HarddiskVolume2").build(), DiskIoCounters.builder("C:").build()))
            .build();

    assertThat(Win32NodeSource.logicalDisks(sample)).containsExactly("C:", "D:", "HarddiskVolume2");
  }
}
