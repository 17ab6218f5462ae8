"""The judge's own failures, raised to its callers (a leaf: the graders and validators raise them)."""

from __future__ import annotations


class IsolationError(RuntimeError):
    """The host cannot build the box and the settings demand one."""


class ToolError(RuntimeError):
    """A task's own program (interactor, checker, generator, grader) does not build."""
