"""Java with the JDK's javac: model code compiled into a jar inside the sandbox's box, run by
`java -jar` in the box with the task's memory limit as the heap (docs/JUDGE.md, "Java and Go").

The memory treatment, as judges do it: the heap gets the task's limit (-Xmx), the main thread's
stack too up to the JVM's 1 GiB maximum (-Xss, like C++'s stack rlimit), and the sandbox's cap on the whole process is the
limit plus HEADROOM_MB for the JVM itself (its code, metadata and thread stacks). A heap that
fills up ends the JVM (-XX:+ExitOnOutOfMemoryError) with the JVM's own words on stderr, which the
verdict reads as MLE. The JVM's own threads (about 14 with these flags) are declared on top of
judge.max_processes."""

from __future__ import annotations

import fcntl
import functools
import os
import shutil
import subprocess
from pathlib import Path

from ..outcome import CompileInfo
from ..sandbox.host import runtime_dir
from ..sandbox.run import tail
from .base import MESSAGE_TAIL, CompiledExecutor, Program, content_key, keep_resident, shared_libraries

JAR_IN_BOX = "/prog/solution.jar"
HELPER_IN_BOX = "/ibench-javac"
HEADROOM_MB = 128  # the JVM's own memory on top of the heap (about 40 MB resident for a small program)
RUNTIME_THREADS = 16  # the JVM's own threads (14 measured with RUN_FLAGS), on top of judge.max_processes
# Without a memory cgroup the address-space rlimit is the hard cap: the JVM reserves far more than
# it touches (heap and main stack of the limit each, class space, code cache, malloc arenas: 5 GB
# measured for a 256 MB limit), so the cap is 2 x limit + this; the heap stays at -Xmx.
ADDRESS_SPACE_EXTRA_KB = 6 * 1024 * 1024
# HotSpot refuses -Xss above 1 GiB ("Invalid thread stack size ... exceeds the maximum
# representable size") and never starts: a task allowing more gives the main thread 1 GiB.
MAX_STACK_KB = 1024 * 1024
OOM_MARKER = "Terminating due to java.lang.OutOfMemoryError"
# The stack is the memory limit, as for C++ (whose stack overflow the cgroup ends as MLE): an
# uncaught StackOverflowError is MLE too. Unwinding a JIT-compiled recursion that deep also takes
# the JVM far past the cap (1.8 GB measured for a 256 MB stack), so either way it is MLE.
STACK_MARKER = 'Exception in thread "main" java.lang.StackOverflowError'
# The run: one CPU's worth of ergonomics whatever the host (serial GC, no GC threads per core),
# no perf-data file, VM messages (the OOM line) to stderr, never to the interactor's pipe.
RUN_FLAGS = ("-XX:+UseSerialGC", "-XX:ActiveProcessorCount=1", "-XX:-UsePerfData", "-XX:+DisplayVMOutputToStderr",
             "-XX:+ExitOnOutOfMemoryError", "-Xmx{mem_kb}k", "-Xss{stack_kb}k", "-Xshare:auto",
             # the JVM's own log lines (a thread it could not start, ...) go to stdout by
             # default, which is the interactor's pipe: warnings and errors to stderr instead
             "-Xlog:disable", "-Xlog:all=warning:stderr",
             # an uncaught exception's trace short enough that its first line (STACK_MARKER)
             # stays in the stderr tail the verdict reads
             "-XX:MaxJavaStackTraceDepth=24")
# The compile: javac in a JVM of its own, C1 only (faster for a run of a second or two).
COMPILE_FLAGS = ("-XX:+UseSerialGC", "-XX:ActiveProcessorCount=1", "-XX:-UsePerfData", "-XX:TieredStopAtLevel=1",
                 "-Xmx1g", "-Xshare:auto")
JAVAC_OPTIONS = ("-encoding", "UTF-8", "-proc:none", "-Xmaxerrs", "50", "-Xlint:none", "-nowarn")

# Compiles the source whatever its public class is called (the file object accepts any name),
# picks the class to start (one declaring `public static void main(String[])`, `Main` first;
# classes are loaded without being initialised, so no code of the solution runs), and writes a
# jar naming it. Runs inside the box: everything it reads or writes is the box's.
HELPER = r"""
import java.io.*;
import java.lang.reflect.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;
import javax.tools.*;

public class IbenchJavac {
    public static void main(String[] a) throws Exception {
        Path src = Path.of(a[0]), classes = Path.of(a[1]);
        String text = Files.readString(src, StandardCharsets.UTF_8);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        JavaFileObject unit = new SimpleJavaFileObject(URI.create("file:///Main.java"), JavaFileObject.Kind.SOURCE) {
            @Override public CharSequence getCharContent(boolean ignore) { return text; }
            @Override public boolean isNameCompatible(String simpleName, JavaFileObject.Kind kind) { return kind == JavaFileObject.Kind.SOURCE; }
        };
        Files.createDirectories(classes);
        List<String> opts = new ArrayList<>(List.of("-d", classes.toString()));
        opts.addAll(Arrays.asList(a).subList(3, a.length));
        StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        if (!javac.getTask(null, files, null, opts, null, List.of(unit)).call()) System.exit(1);
        List<String> names;
        try (Stream<Path> s = Files.walk(classes)) {
            names = s.map(p -> classes.relativize(p).toString()).filter(n -> n.endsWith(".class") && !n.contains("$"))
                     .map(n -> n.substring(0, n.length() - 6).replace('/', '.')).sorted().collect(Collectors.toList());
        }
        List<String> mains = new ArrayList<>();
        try (URLClassLoader loader = new URLClassLoader(new URL[]{classes.toUri().toURL()})) {
            for (String n : names) {
                try {
                    Method m = Class.forName(n, false, loader).getMethod("main", String[].class);
                    if (Modifier.isStatic(m.getModifiers())) mains.add(n);
                } catch (NoSuchMethodException | LinkageError e) { }
            }
        }
        String entry = mains.stream().filter(n -> n.equals("Main") || n.endsWith(".Main")).findFirst()
                            .orElse(mains.size() == 1 ? mains.get(0) : null);
        if (entry == null) {
            System.err.println(mains.isEmpty() ? "error: no class declares public static void main(String[])"
                               : "error: several classes declare main (" + String.join(", ", mains) + "); name the entry class Main");
            System.exit(1);
        }
        int rc = java.util.spi.ToolProvider.findFirst("jar").orElseThrow()
            .run(System.out, System.err, "--create", "--file", a[2], "--main-class", entry, "-C", classes.toString(), ".");
        System.exit(rc == 0 ? 0 : 2);
    }
}
"""


@functools.lru_cache(maxsize=None)
def find_jdk(javac: str) -> tuple[Path, Path, str]:
    """(java, JAVA_HOME, identity) for the JDK whose javac is ``javac``; the identity is the
    exact version that every result records."""
    path = shutil.which(javac)
    if path is None:
        raise RuntimeError(f"judge.javac: {javac!r} not found on PATH (install a JDK: scripts/install.sh)")
    home = Path(os.path.realpath(path)).parent.parent
    java = home / "bin" / "java"
    if not os.access(java, os.X_OK):
        raise RuntimeError(f"judge.javac: {path} has no java beside it ({java})")
    jv = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=60).stderr.strip()
    cv = subprocess.run([str(home / "bin" / "javac"), "-version"], capture_output=True, text=True, timeout=60)
    lines = jv.splitlines()
    identity = f"{home}\n{(cv.stdout + cv.stderr).strip()}\n{lines[1] if len(lines) > 1 else jv}"
    return java, home, identity


def _outside_links(home: Path) -> list[str]:
    """Where the JDK's own symlinks point outside it (Debian keeps its config in
    /etc/java-N-openjdk and some data under /usr/share): the box must hold those too, each target
    itself. TLS certificates are left out."""
    found: set[str] = set()
    for sub in ("lib", "conf"):
        for root, _dirs, files in os.walk(home / sub):
            for name in files:
                p = os.path.join(root, name)
                if not os.path.islink(p):
                    continue
                target = os.path.realpath(p)
                if target.startswith((str(home) + "/", "/etc/ssl/")) or not os.path.exists(target):
                    continue
                found.add(target)
    return sorted(found)


class JavaExecutor(CompiledExecutor):
    language = "java"
    key_tag = "java-box-v2"
    source_name = "Main.java"
    compile_oom_markers = (OOM_MARKER,)

    def toolchain(self) -> str:
        self.java, self.home, identity = find_jdk(self.settings.javac)
        return identity

    def start(self) -> None:
        # The box holds the JDK, what its links point at and exactly the shared libraries the JVM
        # and its native libraries load: no other program of the host (no compiler, no shell).
        libs = shared_libraries([self.java, *sorted((self.home / "lib").rglob("*.so"))])
        binds = [(p, p) for p in dict.fromkeys([str(self.home), *_outside_links(self.home)]) if os.path.lexists(p)]
        binds += [(os.path.realpath(p), p) for p in libs if not p.startswith(str(self.home) + "/")]
        if os.path.exists("/etc/ld.so.cache"):
            binds.append(("/etc/ld.so.cache", "/etc/ld.so.cache"))
        self.runtime_binds = tuple(dict.fromkeys(binds))
        keep_resident([host for host, _ in self.runtime_binds])
        self.helper_dir = self._build_helper()
        self.self_test('public class Main { public static void main(String[] a) { '
                       'System.out.print("ibench-ok"); } }\n',
                       f"judge.javac: {self.version} cannot compile in the sandbox",
                       f"judge.javac: {self.version} does not run in the sandbox")

    @property
    def version(self) -> str:  # type: ignore[override]
        """What every result records: the compiler and the runtime, exactly."""
        lines = self.identity.splitlines()
        return f"{lines[1]}; {lines[2]}"

    def _build_helper(self) -> Path:
        """The compile helper, built once per machine and JDK (trusted: our own source)."""
        key = content_key(self.identity, HELPER)[:20]
        d = runtime_dir() / "javac-helper" / key
        done = d / "IbenchJavac.class"
        if not done.exists():
            d.mkdir(parents=True, exist_ok=True)
            with open(d.parent / ".lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not done.exists():
                    tmp = d.with_name(f"{key}.{os.getpid()}")
                    shutil.rmtree(tmp, ignore_errors=True)
                    tmp.mkdir()
                    (tmp / "IbenchJavac.java").write_text(HELPER)
                    r = subprocess.run([str(self.home / "bin" / "javac"), "-d", str(tmp), str(tmp / "IbenchJavac.java")],
                                       capture_output=True, text=True, timeout=300)
                    if r.returncode != 0:
                        raise RuntimeError(f"judge.javac: the compile helper does not build:\n{r.stderr[-2000:]}")
                    shutil.rmtree(d)
                    os.replace(tmp, d)
        for p in (d.parent.parent, d.parent, d):
            os.chmod(p, 0o755)
        for f in d.iterdir():
            os.chmod(f, 0o644)
        return d

    def program(self, jar: Path | None, info: CompileInfo) -> Program:
        return self.boxed_program(jar, info, (str(self.java), *RUN_FLAGS, "-jar"), JAR_IN_BOX, self.runtime_binds,
                                  runtime_threads=RUNTIME_THREADS, memory_headroom_kb=HEADROOM_MB * 1024,
                                  address_space=(2.0, ADDRESS_SPACE_EXTRA_KB), oom_markers=(OOM_MARKER, STACK_MARKER),
                                  max_stack_kb=MAX_STACK_KB, sockets=True, host_libs=False)

    def staged(self, key: str, jar: Path, source: str) -> Path:
        return self.program_copy(key, ".jar", jar.read_bytes())

    def key_parts(self, source: str, extra_sources: list[Path], include_dirs: list[Path]) -> tuple[bytes | str, ...]:
        return (" ".join(COMPILE_FLAGS + JAVAC_OPTIONS), HELPER, source)

    def build(self, src: Path, stage: Path, extra_sources: list[Path], include_dirs: list[Path], out: Path,
              stderr_file: Path) -> tuple[bool, str]:
        helper = HELPER_IN_BOX if self.sandbox.boxed else str(self.helper_dir)
        report = self.box_run(self.java, [*COMPILE_FLAGS, "-cp", helper, "IbenchJavac", self.sandbox.visible(src),
                                          "classes", "solution.jar", *JAVAC_OPTIONS],
                              [*self.runtime_binds, (str(self.helper_dir), HELPER_IN_BOX), *self.sandbox.stage_binds(stage)],
                              stderr_file, argv0=str(self.java), solver_env=["TMPDIR=/tmp"], mem_kb=3 * 1024 * 1024,
                              fsize_kb=256 * 1024, box_kb=256 * 1024, address_space_kb=12 * 1024 * 1024,
                              export="solution.jar", out=out, sockets=True, host_libs=False)
        message = tail(stderr_file, MESSAGE_TAIL).replace("/Main.java", "Main.java")
        ok = self.exported(report, out)
        why = None if ok else self.box_stop(report, message)
        if why:
            message = f"{why}\n{message}"
        elif not ok and report.solver.exit_code not in (0, 1):
            raise RuntimeError(f"judge.javac: the compile helper failed in the sandbox ({report.solver.status_text}): "
                               f"{message.strip()[-800:]}")
        return ok, message
