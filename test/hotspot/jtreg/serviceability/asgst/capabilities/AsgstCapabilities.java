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
 * @summary ASGST_Capabilities and ASGST_Version are exported by libjvm,
 *          callable through the installed profile.h from an agent before the VM
 *          starts and from Java code later; the capabilities are only the
 *          optional parts that exist, the version is the installed header's.
 * @requires os.family == "linux"
 * @run main/othervm/native -agentlib:AsgstCapabilities AsgstCapabilities
 */
public class AsgstCapabilities {
    static {
        System.loadLibrary("AsgstCapabilities");
    }

    // enum ASGST_Capabilities in profile.h
    static final int REGISTER_QUEUE = 1;
    static final int MARK_FRAME = 2;
    // Both parts, on every CPU the suite runs on: a CPU whose port lacks the
    // frame marks' return barrier (doc/asgst.md) fails here, as it should.
    static final int IMPLEMENTED = REGISTER_QUEUE | MARK_FRAME;

    private static native boolean agentLoaded();
    private static native int capabilitiesAtAgentLoad();
    private static native int capabilitiesNow();
    private static native int versionAtAgentLoad();
    private static native int versionNow();
    private static native int headerVersion();

    // ASGST_VERSION_1_2 in profile.h: the version this VM implements.
    static final int VERSION_1_2 = 0x00010002;
    private static native String libraryDefiningCapabilities();

    public static void main(String[] args) {
        check(agentLoaded(), "Agent_OnLoad did not run");
        int atLoad = capabilitiesAtAgentLoad();
        int now = capabilitiesNow();
        check(atLoad == now, "capabilities changed from " + atLoad + " at agent load to " + now);
        check((now & ~(REGISTER_QUEUE | MARK_FRAME)) == 0, "unknown capability bits in " + now);
        check(now == IMPLEMENTED, "capabilities " + now + ", expected " + IMPLEMENTED);

        check(versionAtAgentLoad() == VERSION_1_2, "ASGST_Version() at agent load: "
              + Integer.toHexString(versionAtAgentLoad()) + ", expected " + Integer.toHexString(VERSION_1_2));
        check(versionNow() == VERSION_1_2, "ASGST_Version() now: " + Integer.toHexString(versionNow()));
        check(headerVersion() == VERSION_1_2, "the installed header declares ASGST_VERSION "
              + Integer.toHexString(headerVersion()) + ", the VM implements " + Integer.toHexString(VERSION_1_2));

        String library = libraryDefiningCapabilities();
        check(library != null && library.endsWith("/libjvm.so"),
              "ASGST_Capabilities is not resolved from libjvm.so but from " + library);
        System.out.println("ASGST_Capabilities() = " + now + " from " + library);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new RuntimeException(message);
        }
    }
}
