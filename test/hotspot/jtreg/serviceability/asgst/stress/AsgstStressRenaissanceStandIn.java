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

/*
 * @test
 * @summary The stress tier's Renaissance path in the fast tier: a stand-in jar
 *          with Renaissance's command-line shape (RenaissanceStandIn), built
 *          here, runs through AsgstStress's renaissance workload with its
 *          checks. It proves the plumbing; the suite itself runs with
 *          make test-stress RENAISSANCE_JAR=path (AsgstStressRenaissance).
 * @requires os.family == "linux"
 * @library /test/lib
 * @build AsgstStress StressWorkloads RenaissanceStandIn jdk.test.lib.util.JarUtils
 * @run driver/timeout=7200 AsgstStressRenaissanceStandIn
 */

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import jdk.test.lib.util.JarUtils;

public class AsgstStressRenaissanceStandIn {
    public static void main(String[] args) throws Exception {
        Path classes = Path.of(System.getProperty("test.classes"));
        Path[] files;
        try (Stream<Path> all = Files.list(classes)) {
            files = all.filter(p -> p.getFileName().toString().startsWith("RenaissanceStandIn"))
                       .map(classes::relativize)
                       .toArray(Path[]::new);
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "RenaissanceStandIn");
        Path jar = Path.of("renaissance-stand-in.jar").toAbsolutePath();
        JarUtils.createJarFile(jar, manifest, classes, files);
        System.setProperty("asgst.stress.renaissance", jar.toString());
        AsgstStress.main(new String[] {"renaissance", "G1", "default", "platform"});
    }
}
