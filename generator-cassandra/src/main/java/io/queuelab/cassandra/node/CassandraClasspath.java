package io.queuelab.cassandra.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The class path of a real Cassandra server ({@code org.apache.cassandra:cassandra-all} and its
 * dependencies), resolved from Maven Central by running {@code mvn dependency:build-classpath} on a
 * small pom shipped in this jar. The result is cached once per machine and user
 * ({@link #machineCache()}: the jars it names are in that user's Maven repository); a cache whose
 * jars all exist is reused without running Maven, by every cluster directory, test and demo. Maven
 * is {@code mvn} on the PATH, or {@code $QUEUELAB_MVN}; offline, the first resolution fails with a
 * message saying that it needs Maven Central or the jars already in the local repository.
 */
public final class CassandraClasspath {
    private static final String RESOURCES = "/io/queuelab/cassandra/node/";
    private static final long MAVEN_TIMEOUT_MINUTES = 10;

    private final List<Path> jars;

    private CassandraClasspath(List<Path> jars) {
        this.jars = List.copyOf(jars);
    }

    /** The Cassandra release this build of queuelab runs by default (the root pom's property). */
    public static String defaultVersion() {
        return launcherProperties().getProperty("cassandra.version");
    }

    /** The directory of the machine-wide cache ({@link io.queuelab.core.process.MachineCache}). */
    public static Path machineCache() {
        return io.queuelab.core.process.MachineCache.directory();
    }

    /** Resolves (or reuses from the {@link #machineCache()}) the class path of Cassandra {@code version}. */
    public static CassandraClasspath resolve(String version) throws IOException {
        return resolve(machineCache(), version);
    }

    /**
     * Resolves (or reuses from {@code cacheDir}) the class path of Cassandra {@code version}.
     * Processes resolving at the same time each write their own files and the cache is replaced
     * atomically, so a reader never sees half a class path.
     *
     * @throws IOException with Maven's last output lines when resolution fails
     */
    public static CassandraClasspath resolve(Path cacheDir, String version) throws IOException {
        if (!version.matches("[0-9A-Za-z.\\-]+")) {
            throw new IllegalArgumentException("not a Cassandra version: '" + version + "'");
        }
        Files.createDirectories(cacheDir);
        Path cached = cacheDir.resolve("classpath-" + version + ".txt");
        if (Files.exists(cached)) {
            CassandraClasspath classpath = parse(Files.readString(cached));
            if (classpath.jars.stream().allMatch(Files::isRegularFile)) {
                return classpath;
            }
        }
        String own = "." + ProcessHandle.current().pid() + "." + System.nanoTime();
        Path pom = cacheDir.resolve("cassandra-server-pom.xml" + own);
        Files.writeString(pom, resource("cassandra-server-pom.xml"));
        Path mavenOutput = cacheDir.resolve("mvn-output.txt" + own);
        Path resolved = cacheDir.resolve("classpath-" + version + ".txt" + own);
        try {
            resolveWithMaven(pom, mavenOutput, resolved, version);
            CassandraClasspath classpath = parse(Files.readString(resolved));
            Files.move(resolved, cached, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return classpath;
        } finally {
            Files.deleteIfExists(pom);
            Files.deleteIfExists(mavenOutput);
            Files.deleteIfExists(resolved);
        }
    }

    private static void resolveWithMaven(Path pom, Path mavenOutput, Path resolved, String version) throws IOException {
        String mvn = System.getenv().getOrDefault("QUEUELAB_MVN", "mvn");
        ProcessBuilder builder = new ProcessBuilder(mvn, "-B", "-q", "-f", pom.toString(),
                "-Dcassandra.version=" + version,
                "-Ddependency-plugin.version=" + launcherProperties().getProperty("dependency-plugin.version"),
                "-Dmdep.outputFile=" + resolved,
                "dependency:build-classpath")
                .redirectErrorStream(true)
                .redirectOutput(mavenOutput.toFile());
        Process maven;
        try {
            maven = builder.start();
        } catch (IOException e) {
            throw new IOException("cannot run Maven ('" + mvn + "') to resolve Cassandra " + version
                    + ": " + e.getMessage() + " (install Maven or set QUEUELAB_MVN)", e);
        }
        try {
            if (!maven.waitFor(MAVEN_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                maven.destroyForcibly();
                throw new IOException("Maven did not resolve Cassandra " + version + " within "
                        + MAVEN_TIMEOUT_MINUTES + " minutes");
            }
        } catch (InterruptedException e) {
            maven.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while Maven resolved Cassandra " + version, e);
        }
        if (maven.exitValue() != 0 || !Files.exists(resolved)) {
            throw new IOException("Maven could not resolve org.apache.cassandra:cassandra-all:" + version
                    + " (the first start on a machine downloads Cassandra's jars from Maven Central; offline, they must"
                    + " already be in the local Maven repository): " + LogTail.lastLines(mavenOutput, 3));
        }
    }

    private static CassandraClasspath parse(String text) {
        List<Path> jars = new ArrayList<>();
        for (String entry : text.trim().split(java.io.File.pathSeparator)) {
            if (!entry.isBlank()) {
                jars.add(Path.of(entry.trim()));
            }
        }
        return new CassandraClasspath(jars);
    }

    public List<Path> jars() {
        return jars;
    }

    /** The class path string for {@code java -cp}. */
    public String asClasspath() {
        return String.join(java.io.File.pathSeparator, jars.stream().map(Path::toString).toList());
    }

    /** The jamm jar, which Cassandra needs as a {@code -javaagent} to measure memory. */
    public Path jammAgent() {
        return jars.stream()
                .filter(jar -> jar.getFileName().toString().startsWith("jamm-"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no jamm jar on Cassandra's class path"));
    }

    static String resource(String name) {
        try (InputStream in = CassandraClasspath.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCES + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties launcherProperties() {
        Properties properties = new Properties();
        try {
            properties.load(new java.io.StringReader(resource("launcher.properties")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }
}
