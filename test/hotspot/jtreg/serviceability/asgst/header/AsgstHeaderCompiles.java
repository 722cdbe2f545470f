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
 * @summary The installed profile.h includes only jni.h, stdint.h and stdbool.h and
 *          compiles alone, with -Wall -Wextra -pedantic -Werror, as C99, C11,
 *          C++11, C++17 and C++20.
 * @requires os.family == "linux"
 * @run driver AsgstHeaderCompiles
 */

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class AsgstHeaderCompiles {
    static final Set<String> ALLOWED_INCLUDES = Set.of("jni.h", "stdint.h", "stdbool.h");
    static final List<String> WARNINGS = List.of("-Wall", "-Wextra", "-pedantic", "-Werror");

    public static void main(String[] args) throws Exception {
        Path include = Path.of(System.getProperty("test.jdk"), "include");
        Path header = include.resolve("profile.h");
        check(Files.isRegularFile(header), "the JDK image has no " + header);
        checkIncludes(header);

        Path source = Path.of(System.getProperty("test.src"), "profile_header_check.c");
        String cc = compiler("CC", "gcc", "cc", "clang");
        String cxx = compiler("CXX", "g++", "c++", "clang++");
        for (String std : List.of("c99", "c11")) {
            compile(cc, "c", std, include, source);
        }
        for (String std : List.of("c++11", "c++17", "c++20")) {
            compile(cxx, "c++", std, include, source);
        }
    }

    static void checkIncludes(Path header) throws IOException {
        Pattern include = Pattern.compile("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]");
        Set<String> found = new TreeSet<>();
        for (String line : Files.readAllLines(header, StandardCharsets.UTF_8)) {
            Matcher m = include.matcher(line);
            if (m.find()) {
                found.add(m.group(1));
            }
        }
        check(ALLOWED_INCLUDES.containsAll(found), "profile.h includes " + found
              + ", but may include only " + ALLOWED_INCLUDES);
        check(found.contains("jni.h"), "profile.h does not include jni.h");
    }

    static void compile(String compiler, String language, String std, Path include, Path source)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(compiler, "-x", language, "-std=" + std));
        command.addAll(WARNINGS);
        command.addAll(List.of("-fsyntax-only", "-I" + include, "-I" + include.resolve("linux"),
                               source.toString()));
        System.out.println(String.join(" ", command));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        System.out.print(output);
        check(exit == 0, language + " (" + std + ") compilation failed with exit code " + exit);
        check(output.isBlank(), language + " (" + std + ") compilation printed diagnostics");
    }

    /* The compiler named by the environment variable, else the first one on PATH. */
    static String compiler(String variable, String... candidates) {
        String named = System.getenv(variable);
        if (named != null && !named.isBlank()) {
            return named;
        }
        String path = System.getenv("PATH");
        for (String candidate : candidates) {
            for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, candidate))) {
                    return Path.of(dir, candidate).toString();
                }
            }
        }
        throw new RuntimeException("no compiler found for " + variable + " (tried " + String.join(", ", candidates)
                                   + " on PATH " + path + "); this test needs one");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
