"""The judge: compile, run in a sandbox, decide verdicts (SPEC §4).

    from ibench.judge import Judge, JudgeSettings
    result = Judge(JudgeSettings()).judge(task, source_code)   # -> SampleResult
"""

from .judge import Judge, ToolError
from .outcome import CaseResult, CompileInfo, SampleResult
from .settings import JudgeSettings
from .verdict import Verdict, most_severe

__all__ = ["Judge", "JudgeSettings", "ToolError", "CaseResult", "CompileInfo", "SampleResult",
           "Verdict", "most_severe"]
