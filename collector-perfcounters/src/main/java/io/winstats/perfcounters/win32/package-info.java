/**
 * Windows figures that come from Win32 APIs other than PDH, read as windows_exporter v0.31.8 reads them: the services
 * of the Service Control Manager, the network adapters of the IP Helper API, the volumes of the volume management
 * functions, the release (the registry and {@code RtlGetVersion}) and the DNS names ({@code GetComputerNameExW}). Each
 * source is a narrow port in Java terms ({@link io.winstats.perfcounters.win32.ServiceControlManager}, {@link
 * io.winstats.perfcounters.win32.IpHelper}, {@link io.winstats.perfcounters.win32.VolumeManagement}, {@link
 * io.winstats.perfcounters.win32.SystemInformation}), implemented with JNA in {@code win32.jna} only, and a reader
 * above it ({@link io.winstats.perfcounters.win32.ServiceReader}, {@link io.winstats.perfcounters.win32.AdapterReader},
 * {@link io.winstats.perfcounters.win32.VolumeReader}, {@link io.winstats.perfcounters.win32.OsReader}) that tests
 * drive through a fake of the port.
 */
@NullMarked
package io.winstats.perfcounters.win32;

import org.jspecify.annotations.NullMarked;
