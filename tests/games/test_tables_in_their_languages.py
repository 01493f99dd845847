"""Whole tables in the table's language: a Noche de los Vampiros night in Chinese and in Spanish, and a
Vampire: the Masquerade fight in Chinese, each a seeded session played through the `dusk` command.

Two checks read each transcript. Every English word of dusk's own messages (the catalog's msgids)
that the language's translations never use is absent, outside the names the ruleset gives. And, at
a Chinese table, every run of Latin letters is a name (the ruleset's names and the words of its own
texts, the players' names), a command as typed, or dice notation: a word of dusk's left in English
fails, named with its line. The lines asserted beside them were worked out from the catalogs, the
rulesets' `words:` and `results:`, and the seeds' dice.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ruleset_engine.repl.commands import BUILTINS
from tests.games.test_table_in_chinese import LATIN, NOTATION, PATH, PRODUCTS, TYPED, foreign_words, ruleset_names

ROOT = Path(__file__).resolve().parents[2]


def play(ruleset: str, seed: int, commands: list[str], tmp_path, lang: str = "zh", sets=()) -> str:
    """The transcript of the commands (some refused on purpose: exit 1), the language chosen by --lang."""
    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "data"), DUSK_LANG="en", NO_COLOR="1", COLUMNS="120")
    argv = [sys.executable, "-m", "ruleset_engine", "play", ruleset, "--seed", str(seed), "--lang", lang]
    for given in sets:
        argv += ["--set", given]
    out = subprocess.run(argv + ["-c", "; ".join(commands)], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 1, out.stdout + out.stderr
    return out.stdout


def english_words(lang: str) -> set[str]:
    """The words of dusk's English messages that no translation into `lang` uses."""
    with open(ROOT / "locale" / lang / "LC_MESSAGES" / "dusk.po", "rb") as handle:
        catalog = read_po(handle, locale=lang)
    english, translated = set(), set()
    for message in catalog:
        if not message.id:
            continue
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            english |= set(LATIN.findall(re.sub(r"\{\w*\}", " ", text)))
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            translated |= set(LATIN.findall(re.sub(r"\{\w*\}", " ", text)))
    return {word for word in english - translated if len(word) > 2}


def file_words(ruleset: str) -> set[str]:
    """Every Latin word written in a bundled ruleset's files: its names and its own texts (a ruleset
    without texts in the table's language shows its English ones)."""
    files = [ROOT / "rulesets" / f"{ruleset}.yaml", *sorted((ROOT / "rulesets" / ruleset).glob("*.yaml"))]
    words = {word for path in files if path.is_file() for word in LATIN.findall(path.read_text(encoding="utf-8"))}
    # A field is shown by its name with spaces for underscores (self_control as "self control").
    return words | {part for word in words for part in word.split("_") if part}


def dusk_words_left(transcript: str, lang: str, names: set[str]) -> list[str]:
    forbidden = english_words(lang) - names
    assert "Undone" in forbidden     # the check can fail
    return [f"{word!r} in {line.strip()!r}" for line in transcript.splitlines()
            for word in LATIN.findall(PATH.sub(" ", line)) if word in forbidden]


NOCHE = ["2", "Ana", "Beto", "auto", "help", "help scale", "scale shot", "auto 30", "status", "table outcomes",
         "sheet Ana", "log 3", "undo", "sheet Nadie"]


# At a Chinese table the Relationships are told in Chinese (typed here; the automatic answer's own
# Chinese words are test_noche_s_automatic_relationships_in_the_table_s_language's).
NOCHE_ZH = NOCHE[:3] + ["儿时的玩伴", "一起逃过难"] + NOCHE[3:]


def test_a_noche_night_in_chinese(tmp_path):
    transcript = play("noche-de-los-vampiros", 2, NOCHE_ZH, tmp_path, lang="zh", sets=["hours=2"])
    names = ruleset_names("noche-de-los-vampiros") | {"Ana", "Beto", "Nadie"}
    assert not dusk_words_left(transcript, "zh", names | set(BUILTINS))
    # Noche's own texts in Chinese too: outside its names (typed as they are), the players' names, the
    # commands and dice notation, no Latin word is left; the words of its English texts are not allowed.
    english = file_words("noche-de-los-vampiros") - names
    assert {"Hour", "Vampire", "Pool", "sun", "Triumph", "dead"} <= english          # the check can fail
    metavars = {name.upper() for name in ruleset_names("noche-de-los-vampiros")}     # help scale: `scale TO`
    import ruleset_engine as dusk

    noche = dusk.load("noche-de-los-vampiros")
    typed = set(noche.tables) | {c for a in noche.actions.values() for p in a.params.values() for c in p.choices or ()}
    allowed = NOTATION | TYPED | PRODUCTS | set(BUILTINS) | names | metavars | typed | {"Zak", "Arntson"}
    assert not foreign_words(transcript, allowed), "\n".join(foreign_words(transcript, allowed))
    assert "没有 zh 的文字" not in transcript                    # no fallback to English to say
    assert "新人物：Ana。" in transcript and "Beto 与 Ana 有羁绊：儿时的玩伴" in transcript
    assert "夜晚开始，共 2 个人物；尺度：场景。吸血鬼骰池：一颗骰子。" in transcript
    assert "  尺度 TO " in transcript and "尺度：镜头，用于之后的冲突。" in transcript   # the action by its label
    assert "天亮了。2 个人物又活过一天：Ana和Beto。" in transcript     # a list joined as Chinese joins it
    assert "游戏结束：天亮。 2 个人物看到了日出。" in transcript         # the result's Chinese words
    assert "第 2/2 小时 | 镜头 | 骰池 15 | Ana和Beto | 结束：天亮" in transcript
    assert "│ 最高骰 │ 结局 " in transcript and "│ 格子       │ □□□□□ 0/5 │" in transcript
    assert "已撤销：auto 30（第 3–5 步）。" in transcript
    assert "没有人叫 'Nadie'；现有名字：Ana, Beto" in transcript


def test_a_noche_night_in_spanish(tmp_path):
    commands = [c.replace("scale", "escala").replace("shot", "toma") for c in NOCHE]      # typed in Spanish
    transcript = play("noche-de-los-vampiros", 2, commands, tmp_path, lang="es", sets=["hours=2"])
    names = ruleset_names("noche-de-los-vampiros") | file_words("noche-de-los-vampiros") | set(BUILTINS)
    assert not dusk_words_left(transcript, "es", names)
    # The ruleset's words in Spanish (words: es:, results: es:), typed and shown.
    assert "— Hora 1 —" in transcript and "Escala: toma, para los conflictos que vienen." in transcript
    assert "  escala TO" in transcript        # help's overview and help escala: the action as it is typed
    assert "TO  uno de toma, escena, hora" in transcript
    assert "La partida ha terminado: amanecer. 2 personajes ven salir el sol." in transcript
    assert "| terminada: amanecer" in transcript
    assert "Ana: ¿qué Relaciones tuyas pones en juego (sus nombres, o none para ninguna)? Beto (auto)" in transcript
    assert "│ dado más alto │ desenlace" in transcript                # the table's column titles
    assert re.search(r"│ vivo +│ verdadero │", transcript) and re.search(r"│ casillas +│ □□□□□ 0/5 │", transcript)
    assert "Deshecho: auto 30 (turnos 2–5)." in transcript


@pytest.mark.parametrize("lang, told", [
    ("es", ["Beto tiene un Vínculo con Ana: Vínculo de Beto con Ana, aún por contar",
            "Ana tiene un Vínculo con Beto: Vínculo de Ana con Beto, aún por contar"]),
    ("zh", ["Beto 与 Ana 有羁绊：Beto 与 Ana 的羁绊（留待讲述）", "Ana 与 Beto 有羁绊：Ana 与 Beto 的羁绊（留待讲述）"]),
])
def test_noche_s_automatic_relationships_in_the_table_s_language(tmp_path, lang, told):
    """auto: answers the Relationships' questions with the ruleset's words in the table's language
    (its auto: carries one text per language), not its English ones."""
    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "data"), DUSK_LANG="en", NO_COLOR="1", COLUMNS="120")
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "play", "noche-de-los-vampiros", "--seed", "2",
                          "--lang", lang, "--set", "hours=2", "-c", "2; Ana; Beto; auto"],
                         capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    for line in told:
        assert line in lines, out.stdout
    assert "to be told" not in out.stdout and "Bond" not in out.stdout


FIGHT = ["npc Brute nature 人类 str=3 dex=2 sta=2 brawl=2 type 普通", "initiative", "attack Kojiro Brute", "done",
         "attack Brute Ana defend 格挡", "done", "回合", "initiative", "attack Kojiro Brute aim 头部",
         "attack Ana Brute firearms", "wound 3 恶性 as Brute", "sheet Brute", "status", "undo",
         "log 3", "attack Ana Nobody", "wound 2 普通 as 人类", "wound 2 普通 人类"]


def test_a_vampire_the_masquerade_fight_in_chinese(tmp_path):
    transcript = play("vampire-the-masquerade", 4, FIGHT, tmp_path)
    names = ruleset_names("vampire-the-masquerade") | file_words("vampire-the-masquerade") | {"Brute", "Nobody"}
    assert not dusk_words_left(transcript, "zh", names | set(BUILTINS))
    # Traits keep the English names the source writes them by; the rest is Chinese or a name.
    import ruleset_engine as dusk

    traits = {word for field in dusk.load("vampire-the-masquerade").entities["character"].fields
              for part in field.split("_") for word in (part, part.capitalize())}
    allowed = NOTATION | TYPED | PRODUCTS | set(BUILTINS) | ruleset_names("vampire-the-masquerade") | traits \
        | {"Ana", "Kojiro", "Brute", "Nobody", "Ghoul", "Fortitude", "Melee", "Athletics", "Willpower"}
    assert not foreign_words(transcript, allowed), "\n".join(foreign_words(transcript, allowed))
    # The natures, damage kinds, defences and aims typed in Chinese (words: zh:) and shown so.
    assert "Brute（人类）加入场景。" in transcript
    assert "Ana 防御（格挡），难易度 6" in transcript
    assert "伤害值：0 + Strength 2 + 2（头部）= 4 个骰子。" in transcript      # no space after the bracket
    assert "Brute 受到 4 级普通伤害：伤残（-5）；6/7 (普通 4, 冲击性 2)。" in transcript     # a track's marks by their labels
    assert "Brute 受到 3 级恶性伤害：超过无法行动，死亡；7/7 (恶性 1, 普通 6)。" in transcript
    assert "│ 身体状态 X//////" in transcript and "│ 种类 人类" in transcript and "│ 状态 死亡" in transcript
    assert "已撤销：wound 3 恶性 as Brute（第 11 步）。" in transcript
    assert "attack target：应为以下之一：Ana, Kojiro, Brute" in transcript
    assert "wound who：应为以下之一：Ana, Kojiro, Brute" in transcript     # 人类 read as human, no one's name
    assert "参数过多：'人类'（参数有：levels, type, as）" in transcript       # quoted as typed, not as 'human'


def test_help_shows_an_action_s_words_and_choices_by_their_labels(tmp_path):
    """`help attack` at a Chinese table: the choices, the defaults and the group by their labels."""
    transcript = play("vampire-the-masquerade", 4, ["help attack", "attack"], tmp_path)
    assert "[防御方式 无|闪避|格挡|架开|询问]" in transcript and "[瞄准 无|手|眼睛|头部|身体|心脏|脚]" in transcript
    assert "  WHO " in transcript and "一个 人物 的名字" in transcript
    assert "默认 无" in transcript and "默认 none" not in transcript


def test_help_says_every_vtm_action_parameter_s_doc_in_chinese(tmp_path):
    """Each parameter's doc (the right column of `help ACTION`) in the ruleset's Chinese: no English
    sentence of the docs is left, and every Latin word on those lines is a name, a typed word or notation."""
    import ruleset_engine as dusk

    ruleset = dusk.load("vampire-the-masquerade")
    actions = [name for name, action in ruleset.actions.items() if any(p.doc for p in action.params.values())]
    transcript = play("vampire-the-masquerade", 4, [f"help {name}" for name in actions] + ["attack"], tmp_path)
    for name in actions:
        for param in ruleset.actions[name].params.values():
            if param.doc is not None:
                assert param.doc["zh"] in transcript, (name, param.name)
                assert param.doc["en"] not in transcript, (name, param.name)
    assert "  难度 N                             一个从 0 到 10 的整数, 默认 0  攻击的难易度；0（省略）：角色卡上武器的难易度（搏斗为 6）。" \
        in transcript
    traits = {word for field in ruleset.entities["character"].fields
              for part in field.split("_") for word in (part, part.capitalize())}
    params = [p for action in ruleset.actions.values() for p in action.params.values()]
    typed = {c for p in params for c in p.choices or ()} | {"no"}       # choices and `wp no`, typed as they are
    metavars = {w.upper() for p in params for w in (p.name, p.word or "") if w} | {"NAME", "TRAITS", "N", "TEXT"}
    allowed = NOTATION | TYPED | PRODUCTS | set(BUILTINS) | ruleset_names("vampire-the-masquerade") | traits \
        | typed | metavars | set(ruleset.tables) | {"Ana", "Kojiro", "Ghoul", "serve"}
    assert not foreign_words(transcript, allowed), "\n".join(foreign_words(transcript, allowed))
