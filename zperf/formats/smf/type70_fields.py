"""Field tables of SMF type 70 subtype 1 (CPU, PR/SM and ICF activity).

Offsets follow IBM's ERBSMF70 mapping at the z/OS 2.4 level (section lengths
given below); where IBM's SMF manual pages give offsets too (header, PR/SM
partition section 0-16, logical processor section 0-36) they agree.  Older
releases write shorter sections and newer ones longer: sections are stepped
by the length in their triplet, and a field past a section's length is
treated as absent, never read from the next section.

Time units differ by section, which is the trap of this record: CPU wait and
parked times are STCK durations (bit 51 = 1 microsecond, so value / 4096 is
microseconds); PR/SM dispatch and online times are binary microseconds; the
logical core busy time is milliseconds.
"""

from __future__ import annotations

from zperf.formats.layout import Field, Layout
from zperf.formats.smf.header import HEADER, PRODUCT

#: Subtype-1 triplets in the order they follow the header (SMF70PRS... SMF70TNS).
SECTIONS = ("PR", "CC", "CP", "AS", "BC", "BV", "CN", "CO", "TN")

_NAMES = {"PR": "RMF product", "CC": "CPU control", "CP": "CPU data", "AS": "ASID data area",
          "BC": "PR/SM partition", "BV": "PR/SM logical processor",
          "CN": "CPU-identification name", "CO": "logical core", "TN": "tenant resource group"}

_triplets: list[Field] = [Field("SMF70TRN", 24, "u2", 2, "", "Number of triplets")]
for _i, _s in enumerate(SECTIONS):
    _base = 28 + 8 * _i
    _triplets += [
        Field(f"SMF70{_s}S", _base, "u4", 4, "bytes", f"Offset to {_NAMES[_s]} section(s)"),
        Field(f"SMF70{_s}L", _base + 4, "u2", 2, "bytes", f"Length of one {_NAMES[_s]} section"),
        Field(f"SMF70{_s}N", _base + 6, "u2", 2, "", f"Number of {_NAMES[_s]} sections"),
    ]

RECORD_HEAD = Layout("SMF 70.1 header and triplets", 100, (*HEADER.fields, *_triplets))


def section_name(code: str) -> str:
    """'BV' -> 'PR/SM logical processor' (for messages)."""
    return _NAMES[code]


#: The RMF product section is the same for types 70 to 79; only the prefix differs.
PRODUCT70 = Layout("RMF product section (SMF70)", PRODUCT.size, tuple(
    Field(f.name.replace("SMF72", "SMF70"), f.offset, f.kind, f.length, f.unit, f.description)
    for f in PRODUCT.fields))


def _u(name: str, offset: int, length: int, description: str, unit: str = "") -> Field:
    return Field(name, offset, {1: "u1", 2: "u2", 4: "u4", 8: "u8"}[length], length, unit,
                 description)


def _text(name: str, offset: int, length: int, description: str) -> Field:
    return Field(name, offset, "text", length, "", description)


def _bits(name: str, offset: int, description: str) -> Field:
    return Field(name, offset, "bits", 1, "", description)


CTL = Layout(
    "SMF70CTL CPU control section",
    344,
    (
        _u("SMF70MOD", 0, 2, "Machine type as hex digits: X'3906' is type 3906"),
        _u("SMF70VER", 2, 1, "CPU version number"),
        _u("SMF70BNP", 3, 1, "Number of physical processors"),
        _bits("SMF70INB", 4, "PR/SM flags: X'08' extended Diagnose 204 data, X'04' z/VM guest"),
        _bits("SMF70STF", 5, "X'08' SMF70MDL is the capacity id and SMF70HWM the model"),
        _u("SMF70GTS", 6, 2, "PR/SM dispatch interval (0 = dynamic)", "ms"),
        _text("SMF70MDL", 8, 16, "CPC model capacity identifier, e.g. '7E7'"),
        _u("SMF70DSA", 24, 2, "Diagnose 204 samples in the interval"),
        _u("SMF70IFA", 26, 2, "zAAPs online at the end of the interval"),
        _u("SMF70CPA", 28, 4, "Physical CPU adjustment factor (old form)"),
        _u("SMF70WLA", 32, 4, "Capacity available to this image", "MSU/h"),
        _u("SMF70LAC", 36, 4, "Long-term (4-hour) average CPU service", "MSU/h"),
        _u("SMF70HOF", 40, 8, "Hypervisor time offset", "STCK"),
        _text("SMF70HWM", 48, 16, "Physical hardware model, e.g. 'M05'"),
        _u("SMF70SUP", 64, 2, "zIIPs online at the end of the interval"),
        _u("SMF70GJT", 66, 8, "Capacity group join time", "STCK"),
        _text("SMF70POM", 74, 4, "Plant of manufacture"),
        _text("SMF70CSC", 78, 16, "Sequence code of the configuration (CPC serial)"),
        _bits("SMF70HHF", 94, "X'80' HiperDispatch supported, X'40' active, X'20' changed"),
        _u("SMF70PMT", 112, 2, "Blocked workload promotion, 1/1000 of capacity"),
        _text("SMF70MPC", 116, 16, "Model permanent capacity identifier"),
        _text("SMF70MTC", 132, 16, "Model temporary capacity identifier"),
        _u("SMF70MCR", 148, 4, "Model capacity rating", "MSU/h"),
        _u("SMF70MPR", 152, 4, "Model permanent capacity rating", "MSU/h"),
        _u("SMF70MTR", 156, 4, "Model temporary capacity rating", "MSU/h"),
        _u("SMF70NRM", 188, 4, "zIIP normalization factor", "/256"),
        _u("SMF70GAU", 192, 4, "Capacity group long-term average", "MSU/h"),
        _u("SMF70NCR", 204, 4, "Nominal model capacity rating", "MSU/h"),
        _u("SMF70NPR", 208, 4, "Nominal permanent capacity rating", "MSU/h"),
        _u("SMF70NTR", 212, 4, "Nominal temporary capacity rating", "MSU/h"),
        _u("SMF70CAI", 216, 1, "Capacity adjustment indication"),
        _u("SMF70CCR", 217, 1, "Capacity change reason"),
        _u("SMF70CPA_ACTUAL", 224, 4, "CPU adjustment factor from the capacity rating"),
        _u("SMF70CPA_SCALING_FACTOR", 228, 4, "Scaling factor of SMF70CPA_ACTUAL"),
        _u("SMF70MCF", 232, 4, "MT maximum capacity factor, CPs", "/1024"),
        _u("SMF70MCFS", 236, 4, "MT maximum capacity factor, zIIPs", "/1024"),
        _u("SMF70MCFI", 240, 4, "MT maximum capacity factor, zAAPs", "/1024"),
        _u("SMF70CF", 244, 4, "MT capacity factor, CPs", "/1024"),
        _u("SMF70CFS", 248, 4, "MT capacity factor, zIIPs", "/1024"),
        _u("SMF70CFI", 252, 4, "MT capacity factor, zAAPs", "/1024"),
        _u("SMF70ATD", 256, 4, "Average thread density, CPs", "/1024"),
        _u("SMF70ATDS", 260, 4, "Average thread density, zIIPs", "/1024"),
        _u("SMF70ATDI", 264, 4, "Average thread density, zAAPs", "/1024"),
        _u("SMF70ADJ", 280, 4, "Logical adjustment factor for the CPU rate"),
        _u("SMF70_IPL_TIME", 324, 8, "IPL time of the partition", "TOD"),
        _text("SMF70CPC_TYPE", 340, 4, "CPC type"),
    ),
)

#: Control section bytes the decoder needs: through SMF70HHF (z/OS 1.x sections
#: end soon after); fields further on are null when the section is shorter.
CTL_MIN_LENGTH = CTL.end_of("SMF70HHF")

CPU = Layout(
    "SMF70CPU CPU data section",
    92,
    (
        _u("SMF70WAT", 0, 8, "CPU wait time", "STCK (1/4096 us)"),
        _u("SMF70CID", 8, 2, "CPU identification (logical address; a thread with MT)"),
        _bits("SMF70CNF", 10, "X'01' online at end, X'02' data invalid, X'04' varied, "
                              "X'08' whole interval"),
        _u("SMF70TYP", 15, 1, "CPU type: 0 general CP, 1 zAAP, 2 zIIP"),
        _u("SMF70SLH", 16, 4, "I/O first-level interrupt handler entries"),
        _u("SMF70TPI", 20, 4, "I/O interrupts handled by TPI"),
        _u("SMF70PAT", 32, 8, "CPU parked time (HiperDispatch)", "STCK (1/4096 us)"),
        _u("SMF70TCB", 40, 8, "TCB dispatches"),
        _u("SMF70SRB", 48, 8, "SRB dispatches"),
        _u("SMF70NIO", 56, 8, "I/O interrupts"),
        _u("SMF70SIG", 64, 8, "SIGP instructions"),
        _u("SMF70WTD", 72, 8, "Wait dispatches"),
        _u("SMF70WTS", 80, 4, "Warning track: successful"),
        _u("SMF70WTU", 84, 4, "Warning track: unsuccessful"),
        _u("SMF70WTI", 88, 4, "Warning track: time yielded to PR/SM", "ms"),
    ),
)

#: CPU data bytes the decoder needs: through SMF70TYP; SMF70PAT (HiperDispatch)
#: is 0 when the section is too short to hold it.
CPU_MIN_LENGTH = CPU.end_of("SMF70TYP")

BCT = Layout(
    "SMF70BCT PR/SM partition data section",
    84,
    (
        _text("SMF70LPM", 0, 8, "Partition name ('PHYSICAL' for PR/SM's own time)"),
        _u("SMF70LPN", 8, 1, "Partition number"),
        _bits("SMF70PFG", 9, "X'80' (de)activated in the interval, X'04' SMF70WST valid"),
        _u("SMF70BDN", 10, 2, "Logical processor sections of this partition"),
        _u("SMF70BDS", 12, 4, "Logical processor sections before this partition's first"),
        _u("SMF70BDA", 16, 4, "Accumulated active logical processors (per sample)"),
        _text("SMF70SPN", 20, 8, "LPAR cluster (sysplex) name"),
        _text("SMF70STN", 28, 8, "System name in the partition"),
        _u("SMF70CSF", 40, 4, "Central storage", "MB"),
        _u("SMF70ESF", 48, 4, "Expanded storage", "MB"),
        _u("SMF70MSU", 52, 4, "Defined capacity limit (0 = none)", "MSU/h"),
        _u("SMF70PFL", 56, 2, "X'8000' SMF70UPI valid, X'4000' capacity group member"),
        _u("SMF70UPI", 58, 1, "User partition id"),
        _u("SMF70MTID", 59, 1, "Maximum thread id"),
        _text("SMF70GNM", 60, 8, "Capacity group name"),
        _u("SMF70GMU", 68, 4, "Capacity group limit", "MSU/h"),
        _text("SMF70HWGR_NAME", 72, 8, "Hardware capping group name"),
        _bits("SMF70_BOOSTINFO", 80, "X'80' zIIP boost, X'40' speed boost"),
    ),
)

#: Partition bytes the decoder needs: through SMF70BDS.
BCT_MIN_LENGTH = BCT.end_of("SMF70BDS")

BPD = Layout(
    "SMF70BPD PR/SM logical processor data section",
    88,
    (
        _u("SMF70PDT", 0, 8, "Total dispatch time (with LPAR management time)", "us"),
        _u("SMF70VPA", 8, 2, "Logical processor address"),
        _u("SMF70BPS", 10, 2, "Processing weight; X'FFFF' = dedicated"),
        _bits("SMF70VPF", 12, "X'80' wait completion, X'04' varied online in the interval"),
        _bits("SMF70POF", 13, "Polarization: X'C0' high, X'80' medium, X'40' low"),
        _u("SMF70CIX", 14, 2, "1-based index of the CPU-identification name section"),
        _u("SMF70EDT", 16, 8, "Effective dispatch time (without LPAR management)", "us"),
        _u("SMF70ACS", 24, 4, "Accumulated actual share"),
        _u("SMF70MIS", 28, 2, "Minimum share"),
        _u("SMF70MAS", 30, 2, "Maximum share"),
        _u("SMF70NSI", 32, 4, "Samples within 10% of the minimum"),
        _u("SMF70NSA", 36, 4, "Samples within 10% of the maximum"),
        _u("SMF70ONT", 40, 8, "Online time", "us"),
        _u("SMF70WST", 48, 8, "Wait state time (valid if SMF70PFG X'04')", "us"),
        _u("SMF70PMA", 56, 4, "Average pricing management weight adjustment"),
        _u("SMF70NSW", 60, 4, "Samples capped by WLM"),
        _u("SMF70POW", 64, 4, "Vertical (HiperDispatch) weight"),
        _u("SMF70NCA", 68, 4, "Samples capped"),
        _u("SMF70HW_CAP_LIMIT", 72, 4, "Absolute hardware capping limit"),
        _u("SMF70HWGR_CAP_LIMIT", 76, 4, "Hardware group capping limit"),
        _u("SMF70MTIT", 80, 8, "Multithreading idle time", "us"),
    ),
)

#: Logical processor bytes the decoder needs: through SMF70EDT.  Sections too
#: short for SMF70ONT (old releases) count as online for the whole interval.
BPD_MIN_LENGTH = BPD.end_of("SMF70EDT")
BPD_ONT_LENGTH = BPD.end_of("SMF70ONT")

#: SMF70BPS of a dedicated logical processor.
DEDICATED = 0xFFFF

CIS = Layout(
    "SMF70CIS CPU-identification name section",
    24,
    (
        _text("SMF70CIN", 0, 16, "Processor type name: CP, IIP, AAP, ICF, IFL..."),
        _u("SMF70CTN", 16, 2, "Physical processors of this type"),
        _u("SMF70CAN", 20, 4, "Accumulated physical processors (per sample)"),
    ),
)

CIS_MIN_LENGTH = CIS.end_of("SMF70CTN")

LCS = Layout(
    "SMF70LCS logical core data section",
    16,
    (
        _u("SMF70_CORE_ID", 0, 2, "Core id"),
        _bits("SMF70_CORE_FLG", 2, "X'80' SMF70_LPAR_BUSY valid"),
        _u("SMF70_CPU_SKIP", 4, 2, "CPU data sections before this core's first thread"),
        _u("SMF70_CPU_NUM", 6, 2, "CPU data sections (threads) of this core"),
        _u("SMF70_PROD", 8, 4, "MT core productivity", "/1024"),
        _u("SMF70_LPAR_BUSY", 12, 4, "Core LPAR busy time", "ms"),
    ),
)

#: SMF70TYP codes, and the CPU-identification names that mean the same types.
TYPE_CP, TYPE_ZAAP, TYPE_ZIIP, TYPE_OTHER = 0, 1, 2, 3
CIN_TYPES = {"CP": TYPE_CP, "AAP": TYPE_ZAAP, "IFA": TYPE_ZAAP, "ZAAP": TYPE_ZAAP,
             "IIP": TYPE_ZIIP, "ZIIP": TYPE_ZIIP, "SUP": TYPE_ZIIP}
