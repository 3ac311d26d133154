package io.winstats.cri.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.jspecify.annotations.Nullable;

/**
 * A private containerd (the host's {@code containerd}, {@code runc} and CNI plugins) that runs real pods for
 * integration tests. Everything lives under one work directory; nothing touches the host's own containerd.
 *
 * <p>{@link #start} writes a {@code config.toml} from {@code containerd config default} with the edits this kind of
 * host needs: root, state and socket under the work
 * directory, {@code restrict_oom_score_adj = true} (root without CAP_SYS_RESOURCE cannot start pods otherwise),
 * netns mounts under the state directory, the local pause image, {@code stats_collect_period = 1}, CNI from
 * {@code /usr/lib/cni} with a bridge and subnet of its own, and runc state under the work directory. It then starts
 * containerd, waits until CRI {@code Version} answers, and imports two single-layer images built from the host's
 * static busybox: {@link #pauseImage()} (runs {@code sleep}) and {@link #busyboxImage()}.
 *
 * <p>{@link #close()} runs the {@link #defer deferred} cleanups in reverse order, removes every pod, stops
 * containerd, deletes the cgroup tree all pods live under, deletes the bridge and restores {@code
 * net.ipv4.ip_forward}. A JVM shutdown hook does the same if a test run dies before closing.
 *
 * <p>Not thread-safe: one test class drives one harness (use {@link ContainerdExtension}).
 */
public final class ContainerdHarness implements AutoCloseable {
  private static final String PAUSE_IMAGE = "localhost/winstats/pause:1";
  private static final String BUSYBOX_IMAGE = "localhost/winstats/busybox:1";
  private static final Path BUSYBOX = Path.of("/bin/busybox");
  private static final Path CNI_BIN = Path.of("/usr/lib/cni");
  private static final Path IP_FORWARD = Path.of("/proc/sys/net/ipv4/ip_forward");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
  /** sun_path is 108 bytes including the NUL; containerd also opens {@code <socket>.ttrpc}. */
  private static final int MAX_SOCKET_PATH = 100;

  private final Path workDir;
  private final String id;
  private final Path socket;
  private final Path config;
  private final Path log;
  private final String bridge;
  private final String cgroupRoot;
  private final @Nullable String ipForwardBefore;
  private final Deque<AutoCloseable> deferred = new ArrayDeque<>();
  private final Thread shutdownHook;
  private @Nullable Process process;
  private boolean everStarted;
  private @Nullable CriTestClient client;
  private boolean closed;

  private ContainerdHarness(Path workDir) {
    this.workDir = workDir.toAbsolutePath().normalize();
    this.id = randomId();
    this.socket = this.workDir.resolve("c.sock");
    this.config = this.workDir.resolve("config.toml");
    this.log = this.workDir.resolve("containerd.log");
    this.bridge = "wsc" + id;
    this.cgroupRoot = "/winstats-" + id;
    this.ipForwardBefore = readQuietly(IP_FORWARD);
    this.shutdownHook = new Thread(this::closeQuietly, "containerd-harness-shutdown-" + id);
  }

  // ---- Availability ------------------------------------------------------------------------------------------

  /**
   * Why this host cannot run the harness, or empty if it can. Needs Linux with cgroup v1 mounted at {@code
   * /sys/fs/cgroup}, root, {@code containerd}, {@code ctr} and {@code runc} on the PATH, {@code /bin/busybox}
   * (busybox-static), the CNI plugins in {@code /usr/lib/cni}, and {@code tar} and {@code ip}.
   */
  public static Optional<String> unavailableReason() {
    if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("linux")) {
      return Optional.of("containerd tests need Linux");
    }
    List<String> missing = new ArrayList<>();
    for (String tool : List.of("containerd", "ctr", "runc", "tar", "ip")) {
      if (onPath(tool) == null) {
        missing.add(tool);
      }
    }
    if (!Files.isExecutable(BUSYBOX)) {
      missing.add(BUSYBOX + " (busybox-static)");
    }
    if (!Files.isExecutable(CNI_BIN.resolve("bridge")) || !Files.isExecutable(CNI_BIN.resolve("host-local"))) {
      missing.add(CNI_BIN + "/{bridge,host-local} (containernetworking-plugins)");
    }
    if (!missing.isEmpty()) {
      return Optional.of("containerd tests need " + String.join(", ", missing));
    }
    if (!"root".equals(System.getProperty("user.name"))) {
      return Optional.of("containerd tests need root (user is " + System.getProperty("user.name") + ")");
    }
    if (!Files.isDirectory(Cgroups.ROOT.resolve("cpuacct")) || !Files.isDirectory(Cgroups.ROOT.resolve("memory"))) {
      return Optional.of("containerd tests need cgroup v1 cpuacct and memory hierarchies under " + Cgroups.ROOT);
    }
    return Optional.empty();
  }

  private static @Nullable Path onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(":")) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, tool);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  // ---- Start ---------------------------------------------------------------------------------------------------

  /**
   * Starts containerd under {@code workDir} (created if missing; keep the path short, the socket path must fit in
   * 100 bytes) and imports the pause and busybox images. On failure everything started so far is undone.
   *
   * @throws IllegalStateException if the host lacks something ({@link #unavailableReason()}) or containerd does not
   *     come up within 30 s; the message carries the end of {@code containerd.log}
   */
  public static ContainerdHarness start(Path workDir) {
    Optional<String> unavailable = unavailableReason();
    if (unavailable.isPresent()) {
      throw new IllegalStateException(unavailable.get());
    }
    ContainerdHarness harness = new ContainerdHarness(workDir);
    if (harness.socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
      throw new IllegalArgumentException("socket path too long for a Unix socket: " + harness.socket);
    }
    Runtime.getRuntime().addShutdownHook(harness.shutdownHook);
    try {
      harness.writeConfig();
      harness.startRuntime();
      harness.importImages();
      return harness;
    } catch (RuntimeException | Error e) {
      try {
        harness.close();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private void writeConfig() {
    try {
      Files.createDirectories(workDir);
      for (String dir : List.of("root", "state", "runc", "opt", "net.d", "cni-ipam", "pod-logs", "images")) {
        Files.createDirectories(workDir.resolve(dir));
      }
      String defaults = run(List.of("containerd", "config", "default"), Duration.ofSeconds(30));
      Files.writeString(workDir.resolve("config.default.toml"), defaults);
      String edited = defaults;
      edited = replaceOnce(edited, "(?m)^root = \".*\"$", "root = " + toml(workDir.resolve("root")));
      edited = replaceOnce(edited, "(?m)^state = \".*\"$", "state = " + toml(workDir.resolve("state")));
      edited =
          replaceOnce(
              edited,
              "(?m)^(\\[grpc\\]\\s*\\n\\s*)address = \".*\"$",
              "$1address = " + Matcher.quoteReplacement(toml(socket)));
      edited = replaceOnce(edited, "(?m)^(\\s*)restrict_oom_score_adj = false$", "$1restrict_oom_score_adj = true");
      edited =
          replaceOnce(
              edited, "(?m)^(\\s*)netns_mounts_under_state_dir = false$", "$1netns_mounts_under_state_dir = true");
      edited = replaceOnce(edited, "(?m)^(\\s*)sandbox_image = \".*\"$", "$1sandbox_image = \"" + PAUSE_IMAGE + "\"");
      edited = replaceOnce(edited, "(?m)^(\\s*)stats_collect_period = \\d+$", "$1stats_collect_period = 1");
      edited = replaceOnce(edited, "(?m)^(\\s*)bin_dir = \".*\"$", "$1bin_dir = " + quoted(CNI_BIN));
      edited = replaceOnce(edited, "(?m)^(\\s*)conf_dir = \".*\"$", "$1conf_dir = " + quoted(workDir.resolve("net.d")));
      edited = replaceOnce(edited, "(?m)^(\\s*)path = \"/opt/containerd\"$", "$1path = " + quoted(workDir.resolve("opt")));
      edited =
          replaceOnce(
              edited,
              "(?s)(\\[plugins\\.\"io\\.containerd\\.grpc\\.v1\\.cri\"\\.containerd\\.runtimes\\.runc\\.options\\]"
                  + "[^\\[]*?\\n(\\s*)Root = )\"\"",
              "$1" + quoted(workDir.resolve("runc")));
      Files.writeString(config, edited);
      Files.writeString(workDir.resolve("net.d").resolve("10-winstats.conflist"), cniConfig());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String toml(Path p) {
    return "\"" + p.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String quoted(Path p) {
    return Matcher.quoteReplacement(toml(p));
  }

  private static String replaceOnce(String text, String regex, String replacement) {
    Matcher m = Pattern.compile(regex).matcher(text);
    if (!m.find()) {
      throw new IllegalStateException("containerd's default config has no match for " + regex);
    }
    StringBuilder out = new StringBuilder();
    m.appendReplacement(out, replacement);
    m.appendTail(out);
    return out.toString();
  }

  /**
   * A bridge of our own with {@code isGateway: false}: pods get eth0 with an address (so the runtime reports
   * interface counters) but no route out, and the bridge plugin leaves {@code ip_forward} alone.
   */
  private String cniConfig() {
    String subnet = freeSubnet();
    return "{\n"
        + "  \"cniVersion\": \"0.4.0\",\n"
        + "  \"name\": \"winstats-" + id + "\",\n"
        + "  \"plugins\": [\n"
        + "    {\n"
        + "      \"type\": \"bridge\",\n"
        + "      \"bridge\": \"" + bridge + "\",\n"
        + "      \"isGateway\": false,\n"
        + "      \"ipMasq\": false,\n"
        + "      \"hairpinMode\": false,\n"
        + "      \"ipam\": {\n"
        + "        \"type\": \"host-local\",\n"
        + "        \"dataDir\": " + toml(workDir.resolve("cni-ipam")) + ",\n"
        + "        \"ranges\": [[{\"subnet\": \"" + subnet + "\"}]]\n"
        + "      }\n"
        + "    },\n"
        + "    { \"type\": \"loopback\" }\n"
        + "  ]\n"
        + "}\n";
  }

  /** A 10.x.y.0/24 that no host route or address uses. */
  private static String freeSubnet() {
    String routes = run(List.of("ip", "-4", "route", "show", "table", "all"), Duration.ofSeconds(10))
        + run(List.of("ip", "-4", "-o", "addr"), Duration.ofSeconds(10));
    SecureRandom random = new SecureRandom();
    for (int attempt = 0; attempt < 100; attempt++) {
      String prefix = "10." + (200 + random.nextInt(50)) + "." + random.nextInt(256) + ".";
      if (!routes.contains(prefix) && !routes.contains(" 10.0.0.0/8")) {
        return prefix + "0/24";
      }
    }
    throw new IllegalStateException("no free 10.x.y.0/24 subnet for the CNI bridge");
  }

  // ---- containerd process --------------------------------------------------------------------------------------

  /**
   * Starts containerd and waits until CRI {@code Version} answers on {@link #socket()}.
   *
   * @throws IllegalStateException if it is already running, exits, or does not answer within 30 s
   */
  public void startRuntime() {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("containerd is already running");
    }
    try {
      Files.deleteIfExists(socket);
      process =
          new ProcessBuilder("containerd", "--config", config.toString())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
      everStarted = true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    CriTestClient c = client();
    long end = System.nanoTime() + START_TIMEOUT.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() - end < 0) {
      Process p = process;
      if (p == null || !p.isAlive()) {
        throw new IllegalStateException(
            "containerd exited with " + (p == null ? "?" : p.exitValue()) + "; log tail:\n" + logTail(40));
      }
      if (Files.exists(socket)) {
        try {
          c.resetConnectBackoff();
          c.version(Duration.ofSeconds(2));
          return;
        } catch (RuntimeException e) {
          last = e;
        }
      }
      Deadline.pause(Duration.ofMillis(50));
    }
    IllegalStateException e =
        new IllegalStateException(
            "containerd did not answer CRI Version within " + START_TIMEOUT + "; log tail:\n" + logTail(40));
    if (last != null) {
      e.initCause(last);
    }
    throw e;
  }

  /**
   * Stops containerd with SIGTERM (SIGKILL after 15 s) and waits for it to exit. Pods and their shims keep running,
   * as they do when a node's containerd restarts; {@link #startRuntime()} recovers them.
   */
  public void stopRuntime() {
    Process p = process;
    if (p == null) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
    }
    process = null;
  }

  /**
   * Kills containerd with SIGKILL and waits for it to exit: its socket file stays behind, as after a crash. Pods and
   * their shims keep running; {@link #startRuntime()} recovers them.
   */
  public void killRuntime() {
    Process p = process;
    if (p == null) {
      throw new IllegalStateException("containerd is not running");
    }
    p.destroyForcibly();
    try {
      if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("containerd pid " + p.pid() + " did not exit after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    process = null;
  }

  /** {@link #stopRuntime()} then {@link #startRuntime()}: a containerd restart as a node sees it. */
  public void restart() {
    stopRuntime();
    startRuntime();
  }

  /** Whether containerd is running. */
  public boolean isRunning() {
    Process p = process;
    return p != null && p.isAlive();
  }

  // ---- Images --------------------------------------------------------------------------------------------------

  private void importImages() {
    Path dir = workDir.resolve("images");
    OciImages.Layer layer = OciImages.busyboxLayer(dir);
    Path pause = OciImages.write(dir, PAUSE_IMAGE, layer, List.of("/bin/sleep", "2147483647"), List.of());
    Path busybox = OciImages.write(dir, BUSYBOX_IMAGE, layer, List.of("/bin/sh", "-c"), List.of("sleep 3600"));
    for (Path image : List.of(pause, busybox)) {
      run(
          List.of("ctr", "--address", socket.toString(), "-n", "k8s.io", "images", "import", image.toString()),
          Duration.ofSeconds(60));
    }
  }

  // ---- Accessors -----------------------------------------------------------------------------------------------

  /** The containerd socket. */
  public Path socket() {
    return socket;
  }

  /** The CRI endpoint, {@code unix:///.../c.sock}. */
  public String endpoint() {
    return "unix://" + socket;
  }

  /** The image sandboxes run (busybox {@code sleep}). */
  public String pauseImage() {
    return PAUSE_IMAGE;
  }

  /** A busybox image for workload containers; give every container a command. */
  public String busyboxImage() {
    return BUSYBOX_IMAGE;
  }

  /** The work directory: {@code containerd.log}, {@code config.toml} and the pod logs are kept there. */
  public Path workDir() {
    return workDir;
  }

  /** The cgroup every pod's cgroup parent lives under, {@code /winstats-<id>}. */
  public String cgroupRoot() {
    return cgroupRoot;
  }

  /** The CNI bridge interface. */
  public String bridge() {
    return bridge;
  }

  /** A client of this containerd (created on first use, closed with the harness). */
  public CriTestClient client() {
    CriTestClient c = client;
    if (c == null) {
      c = new CriTestClient(socket, cgroupRoot, BUSYBOX_IMAGE, workDir.resolve("pod-logs"));
      client = c;
    }
    return c;
  }

  /**
   * Registers a cleanup to run when the harness closes, before pods are removed; cleanups run in reverse order of
   * registration, and one failing does not stop the others.
   *
   * @return {@code resource}, for chaining
   */
  public <T extends AutoCloseable> T defer(T resource) {
    deferred.push(resource);
    return resource;
  }

  /** The last {@code lines} lines of {@code containerd.log}. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  // ---- Close ---------------------------------------------------------------------------------------------------

  /**
   * Runs the deferred cleanups, removes every pod, stops containerd, removes the pods' cgroup tree, the bridge and
   * the state directories, and restores {@code ip_forward}. Keeps {@code containerd.log}, the configs and pod logs.
   * Idempotent.
   *
   * @throws IllegalStateException if something could not be cleaned up (after trying everything else)
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<Throwable> failures = new ArrayList<>();
    while (!deferred.isEmpty()) {
      attempt(failures, deferred.pop()::close);
    }
    if (everStarted && !isRunning()) {
      // Pods outlive containerd; it has to be up to remove them.
      attempt(failures, this::startRuntime);
    }
    if (isRunning()) {
      attempt(failures, () -> client().removeAllPods());
    }
    if (client != null) {
      attempt(failures, client::close);
    }
    attempt(failures, this::stopRuntime);
    attempt(failures, () -> CriTestClient.removeCgroupTree(cgroupRoot));
    attempt(failures, this::deleteBridge);
    attempt(failures, this::restoreIpForward);
    attempt(failures, this::deleteState);
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // Called from the hook itself.
    }
    if (!failures.isEmpty()) {
      IllegalStateException e = new IllegalStateException("containerd harness cleanup failed: " + failures.get(0));
      failures.forEach(e::addSuppressed);
      throw e;
    }
  }

  private void closeQuietly() {
    try {
      close();
    } catch (RuntimeException e) {
      System.err.println("containerd harness " + workDir + ": " + e);
    }
  }

  private interface Step {
    void run() throws Exception;
  }

  private static void attempt(List<Throwable> failures, Step step) {
    try {
      step.run();
    } catch (Exception | AssertionError e) {
      failures.add(e);
    }
  }

  private void deleteBridge() {
    if (Files.exists(Path.of("/sys/class/net", bridge))) {
      run(List.of("ip", "link", "del", bridge), Duration.ofSeconds(10));
    }
  }

  private void restoreIpForward() throws IOException {
    String now = readQuietly(IP_FORWARD);
    if (ipForwardBefore != null && now != null && !now.equals(ipForwardBefore)) {
      Files.writeString(IP_FORWARD, ipForwardBefore + "\n");
    }
  }

  /** Deletes the runtime's state unless something is still mounted under the work directory. */
  private void deleteState() throws IOException {
    String prefix = workDir + "/";
    for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
      String[] fields = line.split(" ");
      if (fields.length > 4 && fields[4].startsWith(prefix)) {
        throw new IllegalStateException("still mounted, state kept: " + fields[4]);
      }
    }
    for (String dir : List.of("root", "state", "runc", "opt", "cni-ipam", "images")) {
      deleteTree(workDir.resolve(dir));
    }
    Files.deleteIfExists(workDir.resolve(socket.getFileName() + ".ttrpc"));
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  // ---- Helpers -------------------------------------------------------------------------------------------------

  private static String randomId() {
    byte[] bytes = new byte[3];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static @Nullable String readQuietly(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Runs a command and returns its stdout.
   *
   * @throws IllegalStateException if it fails or outlives {@code timeout}; the message carries its output
   */
  static String run(List<String> command, Duration timeout) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().close();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Thread pump =
          new Thread(
              () -> {
                try (InputStream in = p.getInputStream()) {
                  in.transferTo(out);
                } catch (IOException ignored) {
                  // The process is gone.
                }
              },
              "harness-output");
      pump.setDaemon(true);
      pump.start();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out after " + timeout + ": " + command);
      }
      pump.join(TimeUnit.SECONDS.toMillis(5));
      String output = out.toString(StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new IllegalStateException(command + " exited with " + p.exitValue() + ": " + output);
      }
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + command, e);
    }
  }

  /** Single-layer OCI image-layout tarballs around the host's static busybox. */
  static final class OciImages {
    record Layer(Path gzip, String digest, long size, String diffId) {}

    private OciImages() {}

    /** {@code /bin/busybox}, one symlink per applet, {@code /tmp}, and a minimal passwd and group. */
    static Layer busyboxLayer(Path dir) {
      try {
        Path rootfs = dir.resolve("rootfs");
        Files.createDirectories(rootfs.resolve("bin"));
        Files.createDirectories(rootfs.resolve("tmp"));
        Files.createDirectories(rootfs.resolve("etc"));
        Files.copy(BUSYBOX, rootfs.resolve("bin/busybox"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        for (String applet : run(List.of(BUSYBOX.toString(), "--list"), Duration.ofSeconds(10)).split("\\s+")) {
          if (!applet.isEmpty() && !applet.equals("busybox")) {
            Path link = rootfs.resolve("bin").resolve(applet);
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, Path.of("busybox"));
          }
        }
        Files.writeString(rootfs.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
        Files.writeString(rootfs.resolve("etc/group"), "root:x:0:\n");
        Path tar = dir.resolve("layer.tar");
        run(
            List.of(
                "tar", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner",
                "-C", rootfs.toString(), "-cf", tar.toString(), "."),
            Duration.ofSeconds(60));
        String diffId = "sha256:" + sha256(tar);
        Path gz = dir.resolve("layer.tar.gz");
        try (InputStream in = Files.newInputStream(tar);
            OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
          in.transferTo(out);
        }
        return new Layer(gz, "sha256:" + sha256(gz), Files.size(gz), diffId);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Writes {@code <dir>/<name>.tar}; the index annotation {@code io.containerd.image.name} names the image. */
    static Path write(Path dir, String name, Layer layer, List<String> entrypoint, List<String> cmd) {
      try {
        Path oci = dir.resolve(name.replaceAll("[^A-Za-z0-9]", "_"));
        Path blobs = oci.resolve("blobs/sha256");
        Files.createDirectories(blobs);
        Files.copy(layer.gzip(), blobs.resolve(layer.digest().substring(7)),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String imageConfig =
            "{\"architecture\":\"amd64\",\"os\":\"linux\",\"created\":\"1970-01-01T00:00:00Z\","
                + "\"config\":{\"Env\":[\"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\"],"
                + "\"Entrypoint\":" + json(entrypoint) + ",\"Cmd\":" + (cmd.isEmpty() ? "null" : json(cmd))
                + ",\"WorkingDir\":\"/\"},"
                + "\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"" + layer.diffId() + "\"]},"
                + "\"history\":[{\"created\":\"1970-01-01T00:00:00Z\",\"created_by\":\"winstats harness\"}]}";
        Blob config = blob(blobs, imageConfig);
        String manifest =
            "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                + "\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\""
                + config.digest() + "\",\"size\":" + config.size() + "},"
                + "\"layers\":[{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\""
                + layer.digest() + "\",\"size\":" + layer.size() + "}]}";
        Blob m = blob(blobs, manifest);
        String tag = name.substring(name.lastIndexOf(':') + 1);
        String index =
            "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.index.v1+json\","
                + "\"manifests\":[{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\""
                + m.digest() + "\",\"size\":" + m.size() + ","
                + "\"platform\":{\"architecture\":\"amd64\",\"os\":\"linux\"},"
                + "\"annotations\":{\"io.containerd.image.name\":\"" + name
                + "\",\"org.opencontainers.image.ref.name\":\"" + tag + "\"}}]}";
        Files.writeString(oci.resolve("index.json"), index);
        Files.writeString(oci.resolve("oci-layout"), "{\"imageLayoutVersion\":\"1.0.0\"}");
        Path tar = dir.resolve(oci.getFileName() + ".tar");
        run(
            List.of(
                "tar", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner",
                "-C", oci.toString(), "-cf", tar.toString(), "oci-layout", "index.json", "blobs"),
            Duration.ofSeconds(60));
        return tar;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private record Blob(String digest, long size) {}

    private static Blob blob(Path blobs, String content) throws IOException {
      byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
      String hex = HexFormat.of().formatHex(digest().digest(bytes));
      Files.write(blobs.resolve(hex), bytes);
      return new Blob("sha256:" + hex, bytes.length);
    }

    private static String json(List<String> values) {
      StringBuilder b = new StringBuilder("[");
      for (int i = 0; i < values.size(); i++) {
        b.append(i == 0 ? "" : ",").append('"');
        b.append(values.get(i).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
      }
      return b.append(']').toString();
    }

    private static String sha256(Path file) throws IOException {
      MessageDigest d = digest();
      try (InputStream in = Files.newInputStream(file)) {
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = in.read(buffer)) > 0; ) {
          d.update(buffer, 0, n);
        }
      }
      return HexFormat.of().formatHex(d.digest());
    }

    private static MessageDigest digest() {
      try {
        return MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
