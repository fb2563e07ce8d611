"""Field tables of SMF type 30 (common address space work), subtypes 2 to 5.

What the decoder reads and the simulator writes: the header and its
triplets, and the subsystem, identification, I/O activity, completion,
processor accounting and performance sections.  Offsets are from the start of
each section (a triplet's offset counts from the first byte of the RDW);
sections are found by their triplets, never by these sizes, and a field is read
only where its section is long enough to hold it (sections grow at the end
across releases and APARs: a field past a section's length is absent, not
zero).

Sources (the bracketed keys in the descriptions; zperf's research notes hold
the details):

* [IBM] IBM, z/OS MVS System Management Facilities (SMF), "Record type 30
  (X'1E') Common address space work": its header and self-defining section,
  identification, I/O activity and completion section pages (z/OS 2.1 to 3.1),
  https://www.ibm.com/docs/en/zos/latest?topic=aczd-record-type-30-x1e-common-address-space-work;
  "Processor utilization" (CPU = TCB + SRB + HPT + IIP + RCT).
* [EXP] IBM SMF Explorer's SMF 30 mappings (field names, order, units, what a
  CPU field includes), https://ibm.github.io/IBM-SMF-Explorer/ (Apache-2.0).
* [CODE] Byte-by-byte maps of open-source decoders that agree with each other
  and with the section lengths of a real 2021 record (Broadcom KB 207295):
  Software AG adapya-base ``smfrecordz.py`` (Apache-2.0), colinpaicemq
  SMFFormatter ``SMF306`` (MIT), delu86 smfparser ``type30.py``; IBM's field
  text as franfcwong smf2db quotes it (MIT).  IBM's own "Processor accounting
  section" and "Performance section" pages were not at hand: those offsets are
  [CODE].
* [U] Uncertain (one source, or inferred): said in the field's description.

Units: CPU times are binary hundredths of a second; connect times 128 µs
units; SMF30ISS and SMF30IET are TOD clock values (UTC); SMF30IST, SMF30SIT and
the header time hundredths of a second since local midnight, with a packed
``0cyydddF`` date.  SMF30CPT already holds the enclave (SMF30ENC, SMF30DET),
preemptable-class SRB (SMF30ASR) and zIIP-eligible-on-CP
(SMF30_TIME_ZIIP_ON_CP) times: they are parts of it, not additions [EXP].
"""

from __future__ import annotations

from zperf.formats.layout import Field, Layout

#: The subtypes read: 2 interval, 3 last interval of a step, 4 step end, 5 job end.
INTERVAL_SUBTYPES = (2, 3)
STEP_SUBTYPES = (4, 5)

#: Header triplets, by section: (offset field, length field, count field, where).
TRIPLETS: dict[str, tuple[str, str, str, int]] = {
    "subsystem": ("SMF30SOF", "SMF30SLN", "SMF30SON", 24),
    "identification": ("SMF30IOF", "SMF30ILN", "SMF30ION", 32),
    "io": ("SMF30UOF", "SMF30ULN", "SMF30UON", 40),
    "completion": ("SMF30TOF", "SMF30TLN", "SMF30TON", 48),
    "processor": ("SMF30COF", "SMF30CLN", "SMF30CON", 56),
    "accounting": ("SMF30AOF", "SMF30ALN", "SMF30AON", 64),
    "storage": ("SMF30ROF", "SMF30RLN", "SMF30RON", 72),
    "performance": ("SMF30POF", "SMF30PLN", "SMF30PON", 80),
    "operator": ("SMF30OOF", "SMF30OLN", "SMF30OON", 88),
    "excp": ("SMF30EOF", "SMF30ELN", "SMF30EON", 96),
    "appc": ("SMF30DRO", "SMF30DRL", "SMF30DRN", 112),
    "appc_cumulative": ("SMF30ARO", "SMF30ARL", "SMF30ARN", 120),
    "unix": ("SMF30OPO", "SMF30OPL", "SMF30OPN", 128),
    "usage": ("SMF30UDO", "SMF30UDL", "SMF30UDN", 140),
}
#: The sections the decoder reads (the others are checked to lie in the record only).
READ = ("subsystem", "identification", "io", "completion", "processor", "performance")
#: What a message calls a section.
NAMES = {"subsystem": "subsystem", "identification": "identification", "io": "I/O activity",
         "completion": "completion", "processor": "processor accounting",
         "accounting": "accounting", "storage": "storage", "performance": "performance",
         "operator": "operator", "excp": "EXCP", "appc": "APPC/MVS",
         "appc_cumulative": "APPC/MVS cumulative", "unix": "z/OS UNIX process",
         "usage": "usage data"}


def _triplet_fields() -> list[Field]:
    out = []
    for section, (off, ln, num, at) in TRIPLETS.items():
        label = NAMES[section]
        out += [Field(off, at, "u4", 4, "bytes", f"Offset of the {label} section(s) from "
                      "the RDW [IBM]"),
                Field(ln, at + 4, "u2", 2, "bytes", f"Length of one {label} section [IBM]"),
                Field(num, at + 6, "u2", 2, "", f"Number of {label} sections [IBM]")]
    return out


RECORD_HEAD = Layout(
    "SMF 30 header and self-defining section",
    152,
    (
        Field("SMF30LEN", 0, "u2", 2, "bytes", "Record length including the RDW [IBM]"),
        Field("SMF30SEG", 2, "u2", 2, "", "Segment descriptor [IBM]"),
        Field("SMF30FLG", 4, "bits", 1, "", "System indicator; X'40' subtypes used [IBM]"),
        Field("SMF30RTY", 5, "u1", 1, "", "Record type, 30 [IBM]"),
        Field("SMF30TME", 6, "u4", 4, "1/100 s", "Time the record was moved to the SMF "
              "buffer, since local midnight [IBM]"),
        Field("SMF30DTE", 10, "packed", 4, "0cyydddF", "Date the record was moved to the "
              "SMF buffer [IBM]"),
        Field("SMF30SID", 14, "text", 4, "", "System identification (SID) [IBM]"),
        Field("SMF30WID", 18, "text", 4, "", "Work type: 'JES2' or 'JES3' batch, 'STC', "
              "'TSO', 'OMVS', 'ASCH' [IBM, EXP; the full list U]"),
        Field("SMF30STP", 22, "u2", 2, "", "Subtype: 2 interval, 3 last interval, 4 step "
              "end, 5 job end [IBM]"),
        *_triplet_fields(),
        Field("SMF30EOR", 104, "u2", 2, "", "EXCP sections in later records, old form "
              "[CODE, EXP]"),
        Field("SMF30EOS", 108, "u4", 4, "", "EXCP sections in later records [CODE, EXP]"),
        Field("SMF30OPM", 136, "u4", 4, "", "UNIX process sections in later records "
              "[CODE, EXP]"),
        Field("SMF30UDS", 148, "u4", 4, "", "Usage sections in later records [EXP]"),
    ),
)

SUBSYSTEM = Layout(
    "SMF 30 subsystem section",
    38,
    (
        Field("SMF30TYP", 0, "u2", 2, "", "Subtype again [CODE, EXP]"),
        Field("SMF30RVN", 4, "text", 2, "", "Record version ('05'; not a release) [EXP]"),
        Field("SMF30PNM", 6, "text", 8, "", "Product name 'SMF' [CODE]"),
        Field("SMF30OSL", 14, "text", 8, "", "z/OS level as CVTPRODN gives it [CODE; U "
              "spelling]"),
        Field("SMF30SYN", 22, "text", 8, "", "System name (SYSNAME) [CODE]"),
        Field("SMF30SYP", 30, "text", 8, "", "Sysplex name [CODE]"),
    ),
)

IDENTIFICATION = Layout(
    "SMF 30 identification section",
    250,
    (
        Field("SMF30JBN", 0, "text", 8, "", "Job, started task or TSO user name [IBM]"),
        Field("SMF30PGM", 8, "text", 8, "", "Program name (PGM= of the step) [IBM]"),
        Field("SMF30STM", 16, "text", 8, "", "Step name [IBM]"),
        Field("SMF30UIF", 24, "text", 8, "", "User field [IBM]"),
        Field("SMF30JNM", 32, "text", 8, "", "JES job id: JOBnnnnn, STCnnnnn, TSUnnnnn "
              "[IBM]"),
        Field("SMF30STN", 40, "u2", 2, "", "Step number, the first step 1 [IBM]"),
        Field("SMF30CLS", 42, "text", 1, "", "Job class (blank for TSO and STC) [IBM]"),
        Field("SMF30JF1", 43, "bits", 1, "", "Job flags [IBM]"),
        Field("SMF30JPT", 46, "u2", 2, "", "JES input priority [IBM]"),
        Field("SMF30AST", 48, "u4", 4, "1/100 s", "Device allocation start, since local "
              "midnight [CODE]"),
        Field("SMF30PPS", 52, "u4", 4, "1/100 s", "Problem program start [CODE]"),
        Field("SMF30SIT", 56, "u4", 4, "1/100 s", "Initiator selected the step (job): its "
              "start, since local midnight [CODE]"),
        Field("SMF30STD", 60, "packed", 4, "0cyydddF", "Date of SMF30SIT [CODE]"),
        Field("SMF30RST", 64, "u4", 4, "1/100 s", "Reader start time (the job entered) "
              "[CODE]"),
        Field("SMF30RSD", 68, "packed", 4, "0cyydddF", "Reader start date [CODE]"),
        Field("SMF30USR", 80, "text", 20, "", "Programmer name [CODE]"),
        Field("SMF30GRP", 100, "text", 8, "", "RACF group [CODE]"),
        Field("SMF30RUD", 108, "text", 8, "", "RACF user id [CODE]"),
        Field("SMF30PSN", 132, "text", 8, "", "Step that invoked the procedure [CODE]"),
        Field("SMF30CL8", 140, "text", 8, "", "Job class, 8 characters ('TSU', 'STC') "
              "[CODE]"),
        Field("SMF30ISS", 148, "stck", 8, "TOD, UTC", "Interval start (subtypes 2 and 3) "
              "[CODE, EXP]"),
        Field("SMF30IET", 156, "stck", 8, "TOD, UTC", "Interval end (subtypes 2 and 3) "
              "[CODE, EXP]"),
        Field("SMF30SSN", 164, "u4", 4, "", "Substep number (z/OS UNIX exec) [CODE]"),
        Field("SMF30EXN", 168, "text", 16, "", "Program name; a UNIX name ends at X'00' "
              "[CODE]"),
        Field("SMF30ASI", 184, "u2", 2, "", "Address space id (ASID) [CODE]"),
        Field("SMF30COR", 186, "text", 64, "", "JES job correlator [CODE]"),
    ),
)

IO = Layout(
    "SMF 30 I/O activity section",
    76,
    (
        Field("SMF30INP", 0, "u4", 4, "", "Card images read [IBM]"),
        Field("SMF30TEP", 4, "u4", 4, "", "EXCPs (blocks) of all DDs; see SMF30TEX [IBM]"),
        Field("SMF30TPT", 8, "u4", 4, "", "TSO TPUTs [IBM]"),
        Field("SMF30TGT", 12, "u4", 4, "", "TSO TGETs [IBM]"),
        Field("SMF30TCN", 18, "u4", 4, "128 us", "Device connect time of the address "
              "space [IBM]"),
        Field("SMF30DCF", 22, "u4", 4, "", "Flags: connect time or EXCP counts may be "
              "wrong [IBM, EXP]"),
        Field("SMF30AIC", 32, "u4", 4, "128 us", "DASD connect time [CODE, EXP]"),
        Field("SMF30AID", 36, "u4", 4, "128 us", "DASD disconnect time [CODE, EXP]"),
        Field("SMF30AIW", 40, "u4", 4, "128 us", "DASD pending and control unit queue "
              "time [CODE, EXP]"),
        Field("SMF30AIS", 44, "u4", 4, "", "DASD start subchannels [CODE, EXP]"),
        Field("SMF30TEX", 64, "u8", 8, "", "EXCPs (blocks), 8 bytes: valid where SMF30TEP "
              "overflowed [CODE, EXP]"),
    ),
)

COMPLETION = Layout(
    "SMF 30 completion section",
    8,
    (
        Field("SMF30SCC", 0, "u2", 2, "", "Completion code: X'0ccc' system abend, X'8ccc' "
              "user abend, else the return code [IBM]"),
        Field("SMF30STI", 2, "u2", 2, "", "Termination flags: X'0200' abend, X'0100' "
              "flushed [IBM]"),
        Field("SMF30ARC", 4, "u4", 4, "", "Abend reason code [CODE]"),
    ),
)


def _hundredths(name: str, offset: int, text: str) -> Field:
    return Field(name, offset, "u4", 4, "1/100 s", text)


PROCESSOR = Layout(
    "SMF 30 processor accounting section",
    188,
    (
        Field("SMF30TFL", 2, "u2", 2, "", "Timer flags: a CPU time field is not valid "
              "[EXP, CODE]"),
        _hundredths("SMF30CPT", 4, "TCB time on general CPs; holds ENC, DET, ASR and "
                    "zIIP-eligible time on CPs, not time on zIIPs [EXP, IBM]"),
        _hundredths("SMF30CPS", 8, "SRB time (non-preemptable) [EXP, IBM]"),
        _hundredths("SMF30ICU", 12, "Initiator TCB time (set at step end) [CODE]"),
        _hundredths("SMF30ISB", 16, "Initiator SRB time (set at step end) [CODE]"),
        Field("SMF30IST", 36, "u4", 4, "1/100 s", "Interval start, since local midnight "
              "(subtypes 2 and 3) [CODE]"),
        Field("SMF30IDT", 40, "packed", 4, "0cyydddF", "Interval start date, local [CODE]"),
        _hundredths("SMF30IIP", 44, "I/O interrupt time [CODE, IBM]"),
        _hundredths("SMF30RCT", 48, "Region control task time [CODE, IBM]"),
        _hundredths("SMF30HPT", 52, "Hiperspace processing time [CODE, IBM]"),
        _hundredths("SMF30ASR", 68, "Preemptable-class and client SRB time; part of "
                    "SMF30CPT [EXP]"),
        _hundredths("SMF30ENC", 72, "Independent enclave time on CPs; part of SMF30CPT "
                    "[EXP]"),
        _hundredths("SMF30DET", 76, "Dependent enclave time on CPs; part of SMF30CPT [EXP]"),
        Field("SMF30T32", 85, "bits", 1, "", "zIIP time fields not valid flags [EXP]"),
        _hundredths("SMF30_TIME_ON_ZIIP", 116, "Time on zIIPs, enclaves included, raw "
                    "[EXP, CODE]"),
        _hundredths("SMF30_ENCLAVE_TIME_ON_ZIIP", 120, "Independent enclave time on zIIPs "
                    "[EXP, CODE]"),
        _hundredths("SMF30_DEPENC_TIME_ON_ZIIP", 124, "Dependent enclave time on zIIPs "
                    "[EXP, CODE]"),
        _hundredths("SMF30_TIME_ZIIP_ON_CP", 128, "zIIP-eligible time on CPs (IIPCP); part "
                    "of SMF30CPT [EXP, CODE]"),
        _hundredths("SMF30_ENCLAVE_TIME_ZIIP_ON_CP", 132, "Independent enclave zIIP-eligible "
                    "time on CPs [EXP, CODE]"),
        _hundredths("SMF30_DEPENC_TIME_ZIIP_ON_CP", 136, "Dependent enclave zIIP-eligible "
                    "time on CPs [EXP, CODE]"),
    ),
)


def _su(name: str, offset: int, length: int, text: str) -> Field:
    return Field(name, offset, "u4" if length == 4 else "u8", length, "SU", text)


PERFORMANCE = Layout(
    "SMF 30 performance section",
    216,
    (
        _su("SMF30SRV", 0, 4, "Total service units; wraps, see SMF30SRV_L [EXP, CODE]"),
        _su("SMF30CSU", 4, 4, "CPU (TCB) service units [EXP, CODE]"),
        _su("SMF30SRB", 8, 4, "SRB service units [EXP, CODE]"),
        _su("SMF30IO", 12, 4, "I/O service units [EXP, CODE]"),
        _su("SMF30MSO", 16, 4, "Storage (MSO) service units [EXP, CODE]"),
        Field("SMF30SUS", 24, "u4", 4, "1/16 us per SU", "CPU rate (RMCTADJC) when the "
              "record was written [EXP]"),
        Field("SMF30WLM", 36, "text", 8, "", "WLM workload [EXP, CODE]"),
        Field("SMF30SCN", 44, "text", 8, "", "Service class [EXP, CODE]"),
        Field("SMF30GRN", 52, "text", 8, "", "Resource group [EXP, CODE]"),
        Field("SMF30RCN", 60, "text", 8, "", "Report class [EXP, CODE]"),
        Field("SMF30PF2", 113, "bits", 1, "", "X'20' SMF30PIN: SRM data incomplete [EXP; "
              "U bit]"),
        Field("SMF30INV", 114, "bits", 1, "", "4-byte service counters that wrapped: "
              "X'80' SRV, X'40' CSU, X'20' SRB, X'10' IO, X'08' MSO [EXP]"),
        Field("SMF30CPC", 128, "u2", 2, "x10", "CPU service coefficient [EXP, CODE]"),
        Field("SMF30SRC", 132, "u2", 2, "x10", "SRB service coefficient [EXP, CODE]"),
        Field("SMF30SNF", 136, "u2", 2, "/256", "zIIP normalization factor (SMF30ZNF at "
              "134 is zAAP's) [EXP, CODE]"),
        _su("SMF30SRV_L", 144, 8, "Total service units, 8 bytes [EXP, CODE]"),
        _su("SMF30CSU_L", 152, 8, "CPU service units, 8 bytes [EXP, CODE]"),
        _su("SMF30SRB_L", 160, 8, "SRB service units, 8 bytes [EXP, CODE]"),
        _su("SMF30IO_L", 168, 8, "I/O service units, 8 bytes [EXP, CODE]"),
        _su("SMF30MSO_L", 176, 8, "Storage service units, 8 bytes [EXP, CODE]"),
        Field("SMF30_RCTPCPUA_ACTUAL", 196, "u4", 4, "", "Physical CPU adjustment factor "
              "from the model capacity rating [EXP; offset CODE, one source]"),
        Field("SMF30_RCTPCPUA_NOMINAL", 200, "u4", 4, "", "The same from the nominal "
              "rating [EXP; offset CODE, one source]"),
        Field("SMF30_RCTPCPUA_SCALING_FACTOR", 204, "u4", 4, "", "Divisor of the two above "
              "[EXP; offset CODE, one source]"),
    ),
)

#: The layouts the decoder reads, by section.
LAYOUTS: dict[str, Layout] = {"subsystem": SUBSYSTEM, "identification": IDENTIFICATION,
                              "io": IO, "completion": COMPLETION, "processor": PROCESSOR,
                              "performance": PERFORMANCE}

#: Bytes an identification section needs: through SMF30IET (subtypes 2 and 3 are placed
#: in time by it) and SMF30ASI (an address space is told by it).
IDENTIFICATION_MIN_LENGTH = IDENTIFICATION.end_of("SMF30ASI")
#: Bytes a processor accounting section needs: through SMF30HPT (every CP time).
PROCESSOR_MIN_LENGTH = PROCESSOR.end_of("SMF30HPT")

#: Work types (SMF30WID) and the class of work each is.
CLASS_OF_WORK = {"JES2": "batch", "JES3": "batch", "STC": "stc", "TSO": "tso",
                 "OMVS": "omvs", "ASCH": "appc"}
