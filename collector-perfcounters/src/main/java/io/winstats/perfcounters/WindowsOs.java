package io.winstats.perfcounters;

import org.jspecify.annotations.Nullable;

/**
 * What windows_exporter v0.31.8's os collector reads ({@code internal/collector/os/os.go}): the Windows release for
 * {@code windows_os_info} and the node's DNS names for {@code windows_os_hostname}. Each is {@code null} when it could
 * not be read, and {@link NodePart#OS} then says why.
 *
 * @param version the release, read once
 * @param hostName the names, read with every sample
 */
public record WindowsOs(@Nullable WindowsVersion version, @Nullable HostName hostName) {}
