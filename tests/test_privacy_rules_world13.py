"""The classes the thirteenth held-out extension's blind run (heldout_world13.jsonl) missed or
changed, one test per class, each with values made for the test (not the corpus's)."""

from __future__ import annotations

import base64
import json

import pytest

from reverie.privacy import Masker
from reverie.settings import PrivacySettings


@pytest.fixture(scope="module")
def masker() -> Masker:
    return Masker(PrivacySettings())


def labels(masker: Masker, text: str) -> list[str]:
    return [f.label for f in masker.mask(text).findings]


# ---- session cookies ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "masked"), [
    ("Cookie: lang=fr; JSESSIONID=9F3A61C0D2B84E7A5C19E0B7D4F2A813; prefs=compact",
     "Cookie: lang=fr; JSESSIONID=[SECRET:session_cookie]; prefs=compact"),
    ("curl https://shop.test/cart -H 'Cookie: PHPSESSID=k2m9v0q7r4t1s8u5w3x6y2z0ab' -H 'accept: */*'",
     "curl https://shop.test/cart -H 'Cookie: PHPSESSID=[SECRET:session_cookie]' -H 'accept: */*'"),
    ("Set-Cookie: connect.sid=s%3AqW7e1Rt9yU3iO5pA.hZ2xC4vB6nM8kL0jH; Path=/; HttpOnly",
     "Set-Cookie: connect.sid=[SECRET:session_cookie]; Path=/; HttpOnly"),
    ("curl -b 'laravel_session=eyJpdiI6Ik1hWnR3a0pQ2x9' https://app.test/home",
     "curl -b 'laravel_session=[SECRET:session_cookie]' https://app.test/home"),
    ('s.get(url, cookies={"_billing_session": "Zk3pQ9wLr2Tx8vN1cB5mY7hA4sD6fG0j"})',
     's.get(url, cookies={"_billing_session": "[SECRET:session_cookie]"})'),
    ("# Netscape HTTP Cookie File\n.portal.test\tTRUE\t/\tTRUE\t1790000000\tsessionid\tq8w2e6r4t0y9u7i5o3p1a2s4d6f8g0h1",
     "# Netscape HTTP Cookie File\n.portal.test\tTRUE\t/\tTRUE\t1790000000\tsessionid\t[SECRET:session_cookie]"),
    ("cookies from the browser:\n.AspNetCore.Session\tCfDJ8Qx7Lm2Np4Rs6Tv8Wx0Yz1Ab3Cd5\tportal.test\t/\tSession",
     "cookies from the browser:\n.AspNetCore.Session\t[SECRET:session_cookie]\tportal.test\t/\tSession"),
])
def test_a_session_cookie_is_a_credential(masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked


@pytest.mark.parametrize("text", [
    "Set SESSION_COOKIE_SECURE=True and SESSION_COOKIE_AGE=1209600 in production.",
    "Set-Cookie: session=deleted; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    "Cookie: theme=dark; _ga=GA1.2.1187719382.1744599000; locale=en-GB",
    "Set-Cookie: session_expires=2026-01-08T10:00:00Z; Path=/",
])
def test_cookies_that_hold_no_session_stay(masker: Masker, text: str) -> None:
    assert not masker.mask(text).changed


# ---- a URL's password written with "#" or "@" unencoded ------------------------------------------------

@pytest.mark.parametrize(("text", "masked"), [
    ("REDIS_URL=redis://cache:Kolibri#north42@redis.internal:6379/0",
     "REDIS_URL=redis://[SECRET:url_credentials]@redis.internal:6379/0"),
    ("git clone https://jdoe:Mars@Venus77@git.corp.test/infra.git",
     "git clone https://[SECRET:url_credentials]@git.corp.test/infra.git"),
])
def test_a_url_password_with_a_hash_or_an_at_sign(masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked


def test_a_fragment_after_a_port_is_no_password(masker: Masker) -> None:
    assert not masker.mask("open https://docs.test:8443/#/guide@v2 for the guide").changed


# ---- a Kubernetes Secret's base64 data, decoded ------------------------------------------------------

def b64(value: str) -> str:
    return base64.b64encode(value.encode()).decode()


def test_a_secrets_base64_values_are_decoded_and_checked(masker: Masker) -> None:
    url, user, key = (b64("mysql://shop:Quartz-88-lantern@db.shop.svc:3306/orders"), b64("shop"),
                      b64("wJ7rT2xK9pL4mN6qB1vC3zD5fG8hY0aS2dE4gH6j"))
    text = (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: shop-env\ntype: Opaque\ndata:\n"
            f"  DB_URL: {url}\n  DB_USER: {user}\n  AWS_SECRET_ACCESS_KEY: {key}\n")
    out = masker.mask(text)
    assert url not in out.text and key not in out.text and user in out.text
    assert "DB_URL: [SECRET:url_credentials]" in out.text and "AWS_SECRET_ACCESS_KEY: [SECRET:aws_secret]" in out.text


def test_a_secret_printed_as_json_is_decoded_too(masker: Masker) -> None:
    token = b64("ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5q")
    text = json.dumps({"apiVersion": "v1", "kind": "Secret", "data": {"GH_TOKEN": token, "owner": b64("ci-bot")}}, indent=2)
    out = masker.mask(text)
    assert '"GH_TOKEN": "[SECRET:github_token]"' in out.text and b64("ci-bot") in out.text


def test_base64_outside_a_secret_stays(masker: Masker) -> None:
    text = f"apiVersion: v1\nkind: ConfigMap\ndata:\n  SETTINGS: {b64('log_level=debug')}\n"
    assert not masker.mask(text).changed


# ---- passwords in prose and in Terraform's state -----------------------------------------------------

@pytest.mark.parametrize(("text", "masked"), [
    ("Merhaba, şifrem Lodos4417! ama giriş yapamıyorum", "Merhaba, şifrem [SECRET:password] ama giriş yapamıyorum"),
    ("비번: Hanbit2290# 입니다", "비번: [SECRET:password] 입니다"),
    ("пароль от почтового ящика на работе Volga7731%", "пароль от почтового ящика на работе [SECRET:password]"),
])
def test_passwords_in_turkish_korean_and_russian_phrasings(masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked


@pytest.mark.parametrize("text", [
    "şifrem nedir, hatırlamıyorum",
    "пароль от личного кабинета не подходит уже 3 раза",
])
def test_password_words_without_a_value_stay(masker: Masker, text: str) -> None:
    assert not masker.mask(text).changed


def test_a_random_password_in_terraform_state(masker: Masker) -> None:
    state = json.dumps({"resources": [
        {"type": "random_id", "name": "suffix", "instances": [{"attributes": {"hex": "9f3c", "id": "nzw"}}]},
        {"type": "random_password", "name": "admin", "instances": [{"attributes": {"length": 20,
         "result": "q7LmR2vXw9KpT4sNz8Bc", "special": False}}]}]}, indent=2)
    assert masker.mask(state).text.count("[SECRET:password]") == 1
    assert "q7LmR2vXw9KpT4sNz8Bc" not in masker.mask(state).text


# ---- phones and cards -------------------------------------------------------------------------------

def test_a_lists_heading_speaks_for_its_items(masker: Masker) -> None:
    text = "Phone tree for the offsite:\n- Sigrid (NO): 412 73 905\n- Mads (DK): 31 74 52 08\n- Ana (ES): 612 48 73 91"
    assert masker.mask(text).text.count("[PII:phone]") == 3


def test_a_list_without_such_a_heading_keeps_its_numbers(masker: Masker) -> None:
    assert not masker.mask("Q3 budget lines:\n- hosting: 412 73 905\n- travel: 31 74 52 08").changed


def test_a_number_after_an_email_address_in_contact_details(masker: Masker) -> None:
    out = masker.mask("the fixture still has a real customer (marta.ruiz@correo.test.es, 655 213 487) in it")
    assert "[PII:phone]" in out.text


def test_a_phone_in_a_later_row_of_a_multi_row_insert(masker: Masker) -> None:
    text = ("INSERT INTO contacts (id, name, phone) VALUES\n(1, 'Ann', '0161 496 0123'),\n"
            "(2, 'Wei', '139 2041 7788'),\n(3, 'Ole', '915 22 840');")
    assert masker.mask(text).text.count("[PII:phone]") == 3


def test_a_message_apis_recipient_and_sender(masker: Masker) -> None:
    text = "curl -X POST $URL --data-urlencode 'To=+4420794601234' -d 'From=%2B15017122661' -d 'Body=hi'"
    assert masker.mask(text).text.count("[PII:phone]") == 2


@pytest.mark.parametrize("text", [
    "顾客：我的信用卡5425-2334-3010-9903被重复扣款",
    "カード番号は4929 1234 5678 9012 3です",   # not Luhn-valid: stays
])
def test_card_numbers_touching_cjk_letters(masker: Masker, text: str) -> None:
    assert ("[PII:card_number]" in masker.mask(text).text) == ("5425" in text)


# ---- national identifiers without their own words ----------------------------------------------------

def test_a_sin_after_its_french_name(masker: Masker) -> None:
    assert masker.mask("numéro d'assurance sociale: 512334103").text == "numéro d'assurance sociale: [PII:ca_sin]"


def test_an_identifier_printed_after_a_bare_id(masker: Masker) -> None:
    assert masker.mask("Name: Jo Nguyen\nID: 517 204 306").text == "Name: Jo Nguyen\nID: [PII:au_tfn]"


@pytest.mark.parametrize("text", [
    "ID: 517204306",                      # a bare run of digits under "ID" is as often an order's
    "Order ID: 517 204 306",
    "ID: 2024-11-05",
])
def test_a_bare_id_that_is_no_identifier_stays(masker: Masker, text: str) -> None:
    assert not masker.mask(text).changed


@pytest.mark.parametrize(("text", "label"), [
    ("Berg;Elin;1979-03-14;790314-2300", "se_personnummer"),
    ("Costa, Rui, 02/05/1988, 241559308", "pt_nif"),
    ("Dahl|Ola|1983-05-14|14058341224", "no_fnr"),
])
def test_an_identifier_in_a_persons_row_without_a_header(masker: Masker, text: str, label: str) -> None:
    assert labels(masker, text) == [label]


def test_a_persons_row_under_a_header_that_names_the_column_otherwise(masker: Masker) -> None:
    assert not masker.mask("last;first;joined;order_no\nBerg;Elin;2024-03-14;241559308").changed


# ---- keys: Rails' master key, a Lisp binding ---------------------------------------------------------

@pytest.mark.parametrize(("text", "masked"), [
    ("$ cat config/master.key\n7c0e2b9a41d35f86e1a0c7b3d92f4e58",
     "$ cat config/master.key\n[SECRET:rails_master_key]"),
    ("RAILS_MASTER_KEY=7c0e2b9a41d35f86e1a0c7b3d92f4e58 bin/rails server",
     "RAILS_MASTER_KEY=[SECRET:rails_master_key] bin/rails server"),
])
def test_rails_master_key(masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked


@pytest.mark.parametrize(("text", "masked"), [
    ('(def cohere-key nil)\n(def co_api_key "Qm3vX8rT1pL6kZ9wN2cB5yH7dF0gJ4sA1eR8uI6o")',
     '(def cohere-key nil)\n(def co_api_key "[SECRET:cohere_key]")'),
    ('(setq system_accesstoken "q2w3e4r5t6y7u2i3o4p5a6s7d2f3g4h5j6k7l2z3x4c5v6b7n2m3")',
     '(setq system_accesstoken "[SECRET:azure_devops_token]")'),
])
def test_a_key_bound_in_lisp(masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked


# ---- clean text world13 changed ----------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    'curl -u "$STRIPE_SECRET_KEY:" https://api.stripe.com/v1/charges',
    "curl --user ${API_USER}:${API_PASSWORD} https://api.test/v2/items",
])
def test_curl_credentials_that_are_only_references_stay(masker: Masker, text: str) -> None:
    assert not masker.mask(text).changed


def test_curl_with_a_key_as_the_user_is_still_masked(masker: Masker) -> None:
    assert masker.mask("curl -u rk_live_51Hq8sLq2Xy9Zt7Wv3Nm4Pk6Rj8Ds0Fg2Hb4Jc6Kd8Le0Mf2:"
                       " https://api.stripe.com/v1/charges").changed


# ---- a generated password's final dot before an aside ---------------------------------------------

def test_a_generated_passwords_final_dot_before_an_aside(masker: Masker) -> None:
    assert masker.mask("ok, pw is vT4#kQ9.zW2r8. (mind the case)").text == "ok, pw is [SECRET:password] (mind the case)"
    # a capital after the dot starts a sentence: the dot is the sentence's
    assert masker.mask("the password is vT4#kQ9.zW2r8. Log in soon.").text == "the password is [SECRET:password]. Log in soon."
