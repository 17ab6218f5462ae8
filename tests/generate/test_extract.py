"""Code extraction: the fenced block of the target language, from the final answer only."""

from ibench.generate.extract import NO_CODE, extract_code, fenced_blocks, split_reasoning


def test_takes_cpp_block_from_final_answer():
    text = "Here is my solution.\n```cpp\nint main() { return 0; }\n```\n"
    ext = extract_code(text, "cpp")
    assert ext.code == "int main() { return 0; }\n" and ext.reason == ""


def test_accepts_the_cpp_tag_spellings():
    for tag in ("cpp", "c++", "C++", "cc", "CPP"):
        ext = extract_code(f"```{tag}\nint x;\n```", "cpp")
        assert ext.code == "int x;\n", tag


def test_ignores_other_languages_and_takes_the_last_cpp_block():
    text = ("```python\nprint(1)\n```\nfirst try:\n```cpp\n// v1\n```\nfinal:\n```c++\n// v2\n```\n"
            "```text\nsample output\n```")
    ext = extract_code(text, "cpp")
    assert ext.code == "// v2\n" and ext.blocks == 2


def test_code_inside_reasoning_does_not_count():
    raw = "<think>maybe\n```cpp\nint wrong;\n```\n</think>\nI could not finish."
    reasoning, final = split_reasoning(raw)
    assert "int wrong" in reasoning
    assert extract_code(final, "cpp").code is None


def test_answer_after_think_block_is_used():
    raw = "<think>draft\n```cpp\nint draft;\n```\n</think>\n\n```cpp\nint final_answer;\n```"
    reasoning, final = split_reasoning(raw)
    assert extract_code(final).code == "int final_answer;\n"
    assert reasoning.startswith("draft")


def test_template_opened_think_block_has_only_the_closing_tag():
    raw = "thinking without an opening tag...\n</think>\n```cpp\nint ok;\n```"
    reasoning, final = split_reasoning(raw)
    assert reasoning.startswith("thinking") and extract_code(final).code == "int ok;\n"


def test_unclosed_think_block_means_no_answer():
    reasoning, final = split_reasoning("<think>long thoughts cut by the token limit ```cpp\nint x;\n```")
    assert final == "" and extract_code(final).reason == NO_CODE


def test_no_block_untagged_block_and_truncated_block():
    assert extract_code("just prose", "cpp").reason == NO_CODE
    untagged = "```\nint main(){}\n```"
    assert extract_code(untagged, "cpp").code is None
    assert extract_code(untagged, "cpp", accept_untagged=True).code == "int main(){}\n"
    assert extract_code("```cpp\nint main(){\n", "cpp").code is None  # cut off: no closing fence
    assert extract_code("```cpp\n\n```", "cpp").code is None  # empty block


def test_longer_fences_and_nested_backticks():
    text = "````cpp\nauto s = \"```\";\n````\n"
    assert fenced_blocks(text) == [("cpp", 'auto s = "```";\n')]


def test_harmony_channels():
    raw = ("<|channel|>analysis<|message|>think ```cpp\nint no;\n```<|end|><|start|>assistant"
           "<|channel|>final<|message|>```cpp\nint yes;\n```<|return|>")
    reasoning, final = split_reasoning(raw, "harmony")
    assert "int no" in reasoning
    assert extract_code(final).code == "int yes;\n"
