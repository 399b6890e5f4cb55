"""The class room: a class on one link, as pages see it (/class, /trainer in a class, a lesson's pages).

Every privileged action is checked on the server: the teacher's key is read from the link once, kept in
this session only, removed from the address bar, and checked by the store (hashed) on every change.
Nicknames are shown as plain text only (st.dataframe, st.markdown of escaped text), never as HTML.

The modules, each importing only those above it (tests/unit/test_floors.py's CLASS_ORDER):

    history.py     secrets out of the browser's history: the teacher's key, the student's seat in one entry
    top.py         the projected screen at its top after each move of the lesson
    session.py     every st.session_state key of the challenge's side, named once
    text.py        the words shown, and what a student typed as plain text (plain, label, cell)
    connection.py  the class store (store()), a part's line while it is away (away), guarded parts
    door.py        the way in: Join and its floods, the teacher's key from the link, the student link's QR
    seats.py       a student's /trainer in a class: the challenge, the pause watch, here, the banner
    pictures.py    the pictures: the gallery grid, snapshots, the class chart, public against private
    board.py       the board as every viewer shares it, the class charts, the downloads, the problem in words
    submit.py      Submit to the class: the box, the scoring on the server, the receipt
    links.py       the sidebar's "A link for the class" and its short link
    lesson.py      a student's page in a lesson class (app.py calls its `follow`)
    build.py       the teacher building a lesson on /class: steps from links, questions, save, file out/in
    draft.py       the lesson being built, kept in the store as it changes: a reload restores it (`draft`)
    lead.py        the teacher leading a lesson on /class

Callers import the module they need (`from classroom import board`); this file holds nothing else.
"""
