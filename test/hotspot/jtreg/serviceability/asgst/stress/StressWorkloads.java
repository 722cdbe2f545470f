/*
 * Copyright (c) 2026, the ASGST authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

import javax.xml.transform.Templates;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.stream.StreamResult;
import javax.xml.transform.stream.StreamSource;

/**
 * Real Java programs from Debian packages doing real work, for the stress tier
 * and the overhead benchmark: Jython scripts, H2 SQL, Xalan transforms, Batik
 * rendering, FOP typesetting, Rhino scripts and Clojure code. The libraries are
 * called through reflection, so this file compiles without them; their jars
 * (under /usr/share/java on Debian) must be on the class path when it runs.
 *
 * Usage: StressWorkloads NAME SECONDS THREADS platform|virtual
 * Runs the workload on THREADS threads until SECONDS have passed (every thread
 * finishes the iteration it is in) and prints the iterations done.
 * runRounds does a fixed number of iterations instead (bench/overhead/RealWork.java).
 */
public class StressWorkloads {
    /** The jars each workload needs, in /usr/share/java. */
    public static String[] jars(String workload) {
        return switch (workload) {
            case "jython" -> new String[] {"jython.jar"};
            case "h2" -> new String[] {"h2.jar"};
            case "xalan" -> new String[] {"xalan2.jar", "serializer.jar"};
            case "batik" -> new String[] {"batik-all.jar", "xml-apis-ext.jar", "xmlgraphics-commons.jar",
                                          "commons-io.jar", "commons-logging.jar"};
            case "fop" -> new String[] {"fop.jar", "batik-all.jar", "xml-apis-ext.jar", "xmlgraphics-commons.jar",
                                        "commons-io.jar", "commons-logging.jar"};
            case "rhino" -> new String[] {"js.jar"};
            case "clojure" -> new String[] {"clojure.jar", "spec.alpha.jar", "core.specs.alpha.jar"};
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        };
    }

    static final Object FIRST_ROUND = new Object();

    public static final List<String> ALL = List.of("jython", "h2", "xalan", "batik", "fop", "rhino", "clojure");

    /**
     * The workloads that define classes every round which the next round
     * leaves unreachable: Jython's exec, XSLTC's translets and Rhino's
     * compiled scripts each use a class loader per round. A timed run of
     * these does at least two rounds and ends with a collection, so its
     * classes must be seen unloaded. (Clojure's load-string defines classes
     * every round too, but its DynamicClassLoader keeps them in a static
     * cache of soft references, which a collection clears only when memory
     * runs short: its cell unloaded 0-3 classes.)
     */
    public static final List<String> UNLOADS_CLASSES = List.of("jython", "xalan", "rhino");

    /** One iteration of a workload on one thread; state lives as long as the thread. */
    interface Iteration {
        void run(int round) throws Exception;
    }

    static Iteration create(String workload, int thread) throws Exception {
        return switch (workload) {
            case "jython" -> jython();
            case "h2" -> h2(thread);
            case "xalan" -> xalan();
            case "batik" -> batik();
            case "fop" -> fop();
            case "rhino" -> rhino();
            case "clojure" -> clojure();
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        };
    }

    public static void main(String[] args) throws Exception {
        String workload = args[0];
        long seconds = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        boolean virtual = args[3].equals("virtual");
        long iterations = run(workload, seconds * 1_000_000_000L, threads, virtual);
        System.out.println("workload " + workload + ": " + iterations + " iterations on " + threads + " "
                           + args[3] + " threads");
    }

    /** Runs workload for nanos on threads threads; returns the iterations done. */
    public static long run(String workload, long nanos, int threads, boolean virtual) throws Exception {
        long deadline = System.nanoTime() + nanos;
        long iterations = run(workload, threads, virtual, true, round -> round < 2 || System.nanoTime() < deadline);
        System.gc();  // unloads what the last rounds left unreachable
        return iterations;
    }

    /**
     * Runs rounds iterations of workload on each of threads threads; returns the
     * iterations done. No collection every second: every run does the same work,
     * however long it takes (the overhead benchmark).
     */
    public static long runRounds(String workload, int rounds, int threads, boolean virtual) throws Exception {
        return run(workload, threads, virtual, false, round -> round < rounds);
    }

    /** Runs workload on threads threads while more accepts the next round's number. */
    static long run(String workload, int threads, boolean virtual, boolean collect, IntPredicate more)
            throws Exception {
        AtomicLong iterations = new AtomicLong();
        List<Throwable> failures = new ArrayList<>();
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int index = i;
            Runnable body = () -> {
                try {
                    Iteration iteration = create(workload, index);
                    int round = 0;
                    synchronized (FIRST_ROUND) {
                        // Some libraries load shared state on first use without a lock (FOP's event model).
                        iteration.run(round++);
                        iterations.incrementAndGet();
                    }
                    while (more.test(round)) {
                        iteration.run(round++);
                        iterations.incrementAndGet();
                    }
                } catch (Throwable t) {
                    synchronized (failures) {
                        failures.add(t);
                    }
                }
            };
            Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
            started.add(builder.name(workload + "-" + i).start(body));
        }
        // A collection every second, so that classes the workloads generated are unloaded.
        Thread collector = collect ? Thread.ofPlatform().daemon().name("collector").start(() -> {
            try {
                while (true) {
                    Thread.sleep(1000);
                    System.gc();
                }
            } catch (InterruptedException e) {
                // done
            }
        }) : null;
        for (Thread t : started) {
            t.join();
        }
        if (collector != null) {
            collector.interrupt();
        }
        if (!failures.isEmpty()) {
            throw new RuntimeException(workload + " failed", failures.get(0));
        }
        return iterations.get();
    }

    // Reflection helpers: the first public method of that name and arity.
    static Object call(Object target, String name, Object... args) throws Exception {
        Class<?> c = target instanceof Class<?> k ? k : target.getClass();
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length && accepts(m, args)) {
                return m.invoke(target instanceof Class<?> ? null : target, args);
            }
        }
        throw new NoSuchMethodException(c.getName() + "." + name + "/" + args.length);
    }

    static boolean accepts(Method m, Object[] args) {
        Class<?>[] types = m.getParameterTypes();
        for (int i = 0; i < args.length; i++) {
            if (args[i] != null && !types[i].isPrimitive() && !types[i].isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    static Object construct(String className, Object... args) throws Exception {
        Class<?> c = Class.forName(className);
        for (var constructor : c.getConstructors()) {
            if (constructor.getParameterCount() == args.length) {
                Class<?>[] types = constructor.getParameterTypes();
                boolean ok = true;
                for (int i = 0; i < args.length; i++) {
                    ok &= args[i] == null || types[i].isPrimitive() || types[i].isInstance(args[i]);
                }
                if (ok) {
                    return constructor.newInstance(args);
                }
            }
        }
        throw new NoSuchMethodException(className + ".<init>/" + args.length);
    }

    static void expect(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("wrong result: " + what);
        }
    }

    // Jython: functions, classes, dictionaries and sorting; each exec compiles
    // the script to a new class, so old ones become unloadable.
    static final String PYTHON = String.join("\n",
        "def fib(n):",
        "    return n if n < 2 else fib(n - 1) + fib(n - 2)",
        "class Point(object):",
        "    def __init__(self, x, y):",
        "        self.x, self.y = x, y",
        "    def norm(self):",
        "        return self.x * self.x + self.y * self.y",
        "counts = {}",
        "for i in range(20000):",
        "    w = str(i * 7919 % 1000)",
        "    counts[w] = counts.get(w, 0) + 1",
        "points = sorted([Point(i % 97, i % 89) for i in range(5000)], key=lambda p: p.norm())",
        "text = ' '.join(str(p.norm()) for p in points[:200])",
        "result = fib(17) + len(counts) + points[-1].norm() + len(text.split())",
        "");

    static Iteration jython() throws Exception {
        Object interpreter = construct("org.python.util.PythonInterpreter");
        return round -> {
            call(interpreter, "exec", PYTHON + "# round " + round);
            Object result = call(interpreter, "get", "result");
            expect(result.toString().equals("19582"), "jython " + result);
        };
    }

    // H2: an in-memory database per thread; inserts, an index, joins and aggregates.
    static Iteration h2(int thread) throws Exception {
        Class.forName("org.h2.Driver");
        Connection connection = DriverManager.getConnection("jdbc:h2:mem:stress" + thread + "_" + System.nanoTime());
        return round -> {
            try (Statement s = connection.createStatement()) {
                s.execute("CREATE TABLE orders(id INT PRIMARY KEY, customer INT, amount DECIMAL(10,2), note VARCHAR(40))");
                s.execute("CREATE TABLE customers(id INT PRIMARY KEY, name VARCHAR(40), region INT)");
                try (PreparedStatement p = connection.prepareStatement("INSERT INTO customers VALUES(?, ?, ?)")) {
                    for (int i = 0; i < 500; i++) {
                        p.setInt(1, i);
                        p.setString(2, "customer" + i);
                        p.setInt(3, i % 7);
                        p.addBatch();
                    }
                    p.executeBatch();
                }
                try (PreparedStatement p = connection.prepareStatement("INSERT INTO orders VALUES(?, ?, ?, ?)")) {
                    for (int i = 0; i < 5000; i++) {
                        p.setInt(1, i);
                        p.setInt(2, (i * 31) % 500);
                        p.setBigDecimal(3, java.math.BigDecimal.valueOf(i % 1000, 2));
                        p.setString(4, "note " + (i % 13));
                        p.addBatch();
                    }
                    p.executeBatch();
                }
                s.execute("CREATE INDEX orders_customer ON orders(customer)");
                try (ResultSet r = s.executeQuery(
                        "SELECT c.region, COUNT(*), SUM(o.amount) FROM orders o JOIN customers c ON o.customer = c.id "
                        + "GROUP BY c.region ORDER BY c.region")) {
                    int regions = 0;
                    long orders = 0;
                    while (r.next()) {
                        regions++;
                        orders += r.getLong(2);
                    }
                    expect(regions == 7 && orders == 5000, "h2 " + regions + " " + orders);
                }
                try (ResultSet r = s.executeQuery(
                        "SELECT note, MAX(amount) FROM orders WHERE customer IN (SELECT id FROM customers WHERE region = 3) "
                        + "GROUP BY note HAVING COUNT(*) > 1 ORDER BY note")) {
                    int notes = 0;
                    while (r.next()) {
                        notes++;
                    }
                    expect(notes == 13, "h2 notes " + notes);
                }
                s.execute("DROP TABLE orders");
                s.execute("DROP TABLE customers");
            }
        };
    }

    // Xalan: sorting, grouping with keys and string functions over a generated
    // document, alternating the interpreting processor and XSLTC, which compiles
    // each stylesheet to classes.
    static final String STYLESHEET = """
        <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
          <xsl:key name="by-city" match="person" use="@city"/>
          <xsl:template match="/people">
            <report>
              <xsl:for-each select="person[generate-id() = generate-id(key('by-city', @city)[1])]">
                <xsl:sort select="@city"/>
                <city name="{@city}" count="{count(key('by-city', @city))}"
                      total="{sum(key('by-city', @city)/@age)}">
                  <xsl:for-each select="key('by-city', @city)">
                    <xsl:sort select="@age" data-type="number" order="descending"/>
                    <xsl:if test="position() &lt;= 3">
                      <oldest name="{translate(concat(@first, ' ', @last), 'abc', 'ABC')}"/>
                    </xsl:if>
                  </xsl:for-each>
                </city>
              </xsl:for-each>
            </report>
          </xsl:template>
        </xsl:stylesheet>
        """;

    static String people() {
        StringBuilder b = new StringBuilder("<people>");
        for (int i = 0; i < 3000; i++) {
            b.append("<person first=\"f").append(i).append("\" last=\"l").append(i * 7 % 1000)
             .append("\" city=\"city").append(i % 40).append("\" age=\"").append(i % 90).append("\"/>");
        }
        return b.append("</people>").toString();
    }

    static Iteration xalan() throws Exception {
        String input = people();
        return round -> {
            String factoryClass = round % 2 == 0 ? "org.apache.xalan.processor.TransformerFactoryImpl"
                                                 : "org.apache.xalan.xsltc.trax.TransformerFactoryImpl";
            TransformerFactory factory = TransformerFactory.newInstance(factoryClass, StressWorkloads.class.getClassLoader());
            Templates templates = factory.newTemplates(new StreamSource(new StringReader(STYLESHEET)));
            StringWriter out = new StringWriter();
            templates.newTransformer().transform(new StreamSource(new StringReader(input)), new StreamResult(out));
            String result = out.toString();
            expect(result.split("<city ", -1).length == 41 && result.split("<oldest ", -1).length == 121,
                   "xalan " + result.length());
        };
    }

    // Batik: parses and rasterizes a drawing with gradients, paths, transforms
    // and opacity to PNG.
    static String drawing(int round) {
        StringBuilder b = new StringBuilder(
            "<svg xmlns='http://www.w3.org/2000/svg' width='400' height='300'>"
            + "<defs><linearGradient id='g'><stop offset='0' stop-color='#036'/>"
            + "<stop offset='1' stop-color='#fc0'/></linearGradient>"
            + "<radialGradient id='r'><stop offset='0' stop-color='white'/>"
            + "<stop offset='1' stop-color='red' stop-opacity='0.3'/></radialGradient></defs>"
            + "<rect width='400' height='300' fill='url(#g)'/>");
        for (int i = 0; i < 150; i++) {
            int x = (i * 37 + round) % 400;
            int y = (i * 53) % 300;
            b.append("<g transform='rotate(").append(i * 7 % 360).append(' ').append(x).append(' ').append(y)
             .append(")' opacity='0.7'>")
             .append("<circle cx='").append(x).append("' cy='").append(y).append("' r='").append(5 + i % 20)
             .append("' fill='url(#r)'/>")
             .append("<path d='M").append(x).append(',').append(y).append(" q 20,-30 40,0 t 40,0' stroke='black' ")
             .append("fill='none' stroke-width='2'/></g>");
        }
        return b.append("</svg>").toString();
    }

    static Iteration batik() {
        System.setProperty("java.awt.headless", "true");
        return round -> {
            Object transcoder = construct("org.apache.batik.transcoder.image.PNGTranscoder");
            Object input = construct("org.apache.batik.transcoder.TranscoderInput",
                                     new StringReader(drawing(round)));
            call(input, "setURI", "file:/drawing" + round + ".svg");
            ByteArrayOutputStream png = new ByteArrayOutputStream();
            Object output = construct("org.apache.batik.transcoder.TranscoderOutput", (OutputStream) png);
            call(transcoder, "transcode", input, output);
            byte[] bytes = png.toByteArray();
            expect(bytes.length > 1000 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G', "batik " + bytes.length);
        };
    }

    // FOP: typesets a document with paragraphs and a table into a PDF.
    static String document(int round) {
        StringBuilder b = new StringBuilder("""
            <fo:root xmlns:fo="http://www.w3.org/1999/XSL/Format">
              <fo:layout-master-set>
                <fo:simple-page-master master-name="page" page-height="29.7cm" page-width="21cm" margin="2cm">
                  <fo:region-body/>
                </fo:simple-page-master>
              </fo:layout-master-set>
              <fo:page-sequence master-reference="page">
                <fo:flow flow-name="xsl-region-body">
            """);
        for (int i = 0; i < 40; i++) {
            b.append("<fo:block font-size='").append(9 + i % 5).append("pt' space-after='4pt' text-align='justify'>")
             .append("Paragraph ").append(i).append(" of round ").append(round).append(": ")
             .append("The quick brown fox jumps over the lazy dog. ".repeat(6 + i % 4)).append("</fo:block>");
        }
        b.append("<fo:table table-layout='fixed' width='100%'><fo:table-body>");
        for (int row = 0; row < 60; row++) {
            b.append("<fo:table-row>");
            for (int col = 0; col < 4; col++) {
                b.append("<fo:table-cell border='solid 0.5pt'><fo:block>r").append(row).append('c').append(col)
                 .append(' ').append(row * col * 31 % 1000).append("</fo:block></fo:table-cell>");
            }
            b.append("</fo:table-row>");
        }
        return b.append("</fo:table-body></fo:table></fo:flow></fo:page-sequence></fo:root>").toString();
    }

    // FOP reports every page it renders through java.util.logging: keep it quiet.
    static final java.util.logging.Logger FOP_LOGGER = java.util.logging.Logger.getLogger("org.apache.fop");

    static Iteration fop() throws Exception {
        FOP_LOGGER.setLevel(java.util.logging.Level.WARNING);
        Class<?> factoryClass = Class.forName("org.apache.fop.apps.FopFactory");
        Object factory = call(factoryClass, "newInstance", new URI("file:/"));
        javax.xml.parsers.SAXParserFactory parsers = javax.xml.parsers.SAXParserFactory.newInstance();
        parsers.setNamespaceAware(true);
        return round -> {
            ByteArrayOutputStream pdf = new ByteArrayOutputStream();
            Object fop = call(factory, "newFop", "application/pdf", (OutputStream) pdf);
            // A parser of its own: FOP parses its event models while it handles
            // the document, which a cached parser of this thread would refuse.
            org.xml.sax.XMLReader reader = parsers.newSAXParser().getXMLReader();
            reader.setContentHandler((org.xml.sax.ContentHandler) call(fop, "getDefaultHandler"));
            reader.parse(new org.xml.sax.InputSource(new StringReader(document(round))));
            String head = new String(pdf.toByteArray(), 0, 5, "ISO-8859-1");
            expect(pdf.size() > 5000 && head.equals("%PDF-"), "fop " + pdf.size());
        };
    }

    // Rhino: closures, objects, arrays, sorting, string building and JSON,
    // compiled to classes at the default optimization level.
    static final String JAVASCRIPT = """
        function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
        var people = [];
        for (var i = 0; i < 4000; i++) {
          people.push({ name: 'p' + i, age: (i * 7) % 90, tags: ['a' + (i % 5), 'b' + (i % 3)] });
        }
        people.sort(function (a, b) { return a.age - b.age || (a.name < b.name ? -1 : 1); });
        var byAge = {};
        people.forEach(function (p) { byAge[p.age] = (byAge[p.age] || 0) + 1; });
        var json = JSON.stringify(people.slice(0, 300));
        var back = JSON.parse(json);
        var words = json.replace(/[^a-z0-9]+/g, ' ').split(' ').filter(function (w) { return w.length > 2; });
        fib(18) + Object.keys(byAge).length + back.length + words.length;
        """;

    static Iteration rhino() throws Exception {
        Class<?> contextClass = Class.forName("org.mozilla.javascript.Context");
        Class<?> scriptable = Class.forName("org.mozilla.javascript.Scriptable");
        Method evaluate = contextClass.getMethod("evaluateString", scriptable, String.class, String.class, int.class,
                                                 Object.class);
        return round -> {
            Object context = call(contextClass, "enter");
            try {
                Object scope = call(context, "initStandardObjects");
                Object value = evaluate.invoke(context, scope, JAVASCRIPT + "// round " + round, "stress.js", 1, null);
                double number = ((Number) value).doubleValue();
                expect(number > 2584 + 90 + 300, "rhino " + value);
            } finally {
                call(contextClass, "exit");
            }
        };
    }

    // Clojure: persistent collections, lazy sequences, transients and
    // recursion, compiled from source each round (a class loader per round).
    static final String CLOJURE = """
        (let [fib (fn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
              words (map #(str "w" (mod (* % 7919) 1000)) (range 20000))
              freq (frequencies words)
              sorted (sort-by val > freq)
              squares (persistent! (reduce #(conj! %1 (* %2 %2)) (transient []) (range 10000)))
              groups (group-by #(mod % 13) squares)]
          (+ (fib 17) (count freq) (count (take 10 sorted)) (count groups)
             (reduce + (map count (vals groups)))))
        """;

    static Iteration clojure() throws Exception {
        Class<?> api = Class.forName("clojure.java.api.Clojure");
        Object loadString = call(api, "var", "clojure.core", "load-string");
        Class<?> fn = Class.forName("clojure.lang.IFn");
        Method invoke = fn.getMethod("invoke", Object.class);
        return round -> {
            Object value = invoke.invoke(loadString, CLOJURE + ";; round " + round);
            expect(((Number) value).longValue() == 1597 + 1000 + 10 + 7 + 10000, "clojure " + value);
        };
    }
}
