/**
 * The JNA implementations of the {@code win32} ports: {@link
 * io.winstats.perfcounters.win32.jna.JnaServiceControlManager} binds {@code advapi32.dll} and {@code kernel32.dll} by
 * their {@code W} names, and its {@code Structure} classes lay out {@code ENUM_SERVICE_STATUS_PROCESSW} and {@code
 * QUERY_SERVICE_CONFIGW} as x64 Windows does; {@link io.winstats.perfcounters.win32.jna.JnaIpHelper} binds {@code
 * iphlpapi.dll}'s {@code GetAdaptersAddresses}, with {@code IP_ADAPTER_ADDRESSES_LH} and its address lists likewise;
 * {@link io.winstats.perfcounters.win32.jna.JnaVolumeManagement} calls kernel32's volume management functions through
 * jna-platform's {@code Kernel32}, with {@code VOLUME_DISK_EXTENTS} laid out here;
 * {@link io.winstats.perfcounters.win32.jna.JnaSystemInformation} binds {@code ntdll.dll}'s {@code RtlGetVersion} (with
 * {@code RTL_OSVERSIONINFOEXW}), {@code advapi32.dll}'s {@code RegGetValueW} and {@code kernel32.dll}'s {@code
 * GetComputerNameExW}.
 * Nothing here loads a DLL before the first call, so the classes can be built and tested on any 64-bit host; strings
 * Windows writes are decoded from UTF-16LE by hand, independent of the platform's {@code wchar_t}.
 */
@NullMarked
package io.winstats.perfcounters.win32.jna;

import org.jspecify.annotations.NullMarked;
