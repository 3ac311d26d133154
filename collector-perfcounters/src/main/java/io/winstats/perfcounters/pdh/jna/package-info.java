/**
 * The JNA implementation of the PDH port: {@link io.winstats.perfcounters.pdh.jna.JnaPdhLibrary} binds {@code pdh.dll}
 * and {@code kernel32.dll} by their {@code W} names, and its {@code Structure} classes lay out {@code
 * PDH_RAW_COUNTER}, {@code PDH_FMT_COUNTERVALUE}, their array items, {@code PDH_COUNTER_INFO_W} and {@code
 * MEMORYSTATUSEX} as x64 Windows does. The only code of the PDH source that touches JNA (a fence the build checks);
 * nothing here loads a DLL before the first PDH call, so the classes can be built and tested on any 64-bit host.
 */
@NullMarked
package io.winstats.perfcounters.pdh.jna;

import org.jspecify.annotations.NullMarked;
