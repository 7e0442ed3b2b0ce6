#!/usr/bin/env escript
%% -*- erlang -*-
%%! -noshell
%% Asks Erlang/OTP megaco to decode texts written by the Go text encoder
%% (internal/codec/text) and compares what it gets with its decode of a
%% reference text.
%%
%% usage:
%%   text_decode.escript compare REF_DIR OUR_DIR NAME...
%%     For each NAME, decodes REF_DIR/NAME.pretty.txt with
%%     megaco_pretty_text_encoder (the reference term; when there is no
%%     such file, REF_DIR/NAME.ber with megaco_ber_encoder, at the version
%%     that REF_DIR/NAME.version holds), then
%%     OUR_DIR/NAME.pretty.txt with megaco_pretty_text_encoder and
%%     OUR_DIR/NAME.compact.txt with megaco_compact_text_encoder, each with
%%     decode_message([{version3, v3}], Version, Bin) where Version is what
%%     version_of/2 reads from that text, and prints one line per text:
%%       NAME <TAB> pretty|compact <TAB> same|differs|error <TAB> detail
%%
%%   text_decode.escript reencode IN_DIR OUT_DIR NAME...
%%     For each NAME, decodes IN_DIR/NAME.txt (pretty decoder), encodes the
%%     term to BER, decodes that BER and writes OTP's encodings of the
%%     result: OUT_DIR/NAME.ber, NAME.version, NAME.pretty.txt and
%%     NAME.compact.txt. Prints NAME <TAB> ok <TAB> version, or
%%     NAME <TAB> error <TAB> STAGE <TAB> reason when the text or BER step
%%     fails, and NAME <TAB> noenc <TAB> MODULE <TAB> reason for a text
%%     encoder that fails (its file is then not written).
%%
%% Terms are compared after one normalisation: the audit token lists
%% ('AuditDescriptor'.auditToken, also used for an audit reply's empty
%% descriptors) are sorted. They are BIT STRINGs in every other encoding,
%% and OTP's text decoder reverses their order, so their order carries no
%% meaning (corpus msg79a01).

-define(CONF, [{version3, v3}]).

main(["compare", RefDir, OurDir | Names]) ->
    lists:foreach(fun(N) -> compare(RefDir, OurDir, N) end, Names);
main(["reencode", InDir, OutDir | Names]) ->
    lists:foreach(fun(N) -> reencode(InDir, OutDir, N) end, Names);
main(_) ->
    usage().

usage() ->
    io:format(standard_error,
              "usage: text_decode.escript compare REF_DIR OUR_DIR NAME...~n"
              "       text_decode.escript reencode IN_DIR OUT_DIR NAME...~n", []),
    halt(2).

compare(RefDir, OurDir, Name) ->
    case reference(RefDir, Name) of
        {ok, Ref} ->
            lists:foreach(
              fun({Style, Mod}) ->
                      File = filename:join(OurDir, Name ++ "." ++ Style ++ ".txt"),
                      case decode(Mod, File) of
                          {ok, Ours} when Ours =:= Ref ->
                              line([Name, Style, "same", ""]);
                          {ok, Ours} ->
                              line([Name, Style, "differs", first_difference(Ref, Ours)]);
                          {error, Reason} ->
                              line([Name, Style, "error", Reason])
                      end
              end,
              [{"pretty", megaco_pretty_text_encoder},
               {"compact", megaco_compact_text_encoder}]);
        {error, Reason} ->
            line([Name, "pretty", "error", "reference: " ++ Reason]),
            line([Name, "compact", "error", "reference: " ++ Reason])
    end.

%% reference decodes REF_DIR/NAME.pretty.txt, or when there is none
%% REF_DIR/NAME.ber (with the version its text header would give: the one
%% in NAME.version, written by reencode).
reference(RefDir, Name) ->
    Pretty = filename:join(RefDir, Name ++ ".pretty.txt"),
    case filelib:is_regular(Pretty) of
        true ->
            decode(megaco_pretty_text_encoder, Pretty);
        false ->
            try
                {ok, VBin} = file:read_file(filename:join(RefDir, Name ++ ".version")),
                V = binary_to_integer(VBin),
                {ok, Ber} = file:read_file(filename:join(RefDir, Name ++ ".ber")),
                {ok, M} = megaco_ber_encoder:decode_message(?CONF, V, Ber),
                {ok, normalise(M)}
            catch
                C:R -> {error, flat({C, R})}
            end
    end.

%% decode reads File and decodes it with Mod, returning the normalised term.
decode(Mod, File) ->
    case file:read_file(File) of
        {ok, Bin} ->
            try
                {ok, V} = Mod:version_of(?CONF, Bin),
                case Mod:decode_message(?CONF, V, Bin) of
                    {ok, M} -> {ok, normalise(M)};
                    Other -> {error, flat(Other)}
                end
            catch
                Class:Reason -> {error, flat({Class, Reason})}
            end;
        {error, Reason} ->
            {error, flat({File, Reason})}
    end.

reencode(InDir, OutDir, Name) ->
    {ok, Bin} = file:read_file(filename:join(InDir, Name ++ ".txt")),
    try
        {ok, V} = megaco_pretty_text_encoder:version_of(?CONF, Bin),
        M = case megaco_pretty_text_encoder:decode_message(?CONF, V, Bin) of
                {ok, M0} -> M0;
                Err -> throw({decode, Err})
            end,
        Ber = case catch megaco_ber_encoder:encode_message(?CONF, V, M) of
                  {ok, B} -> B;
                  Err2 -> throw({ber_encode, Err2})
              end,
        %% The texts are written from the BER's decode, as the Go side
        %% starts from the BER too: both see what BER carried.
        MB = case catch megaco_ber_encoder:decode_message(?CONF, V, Ber) of
                 {ok, M1} -> M1;
                 Err3 -> throw({ber_decode, Err3})
             end,
        ok = file:write_file(filename:join(OutDir, Name ++ ".ber"), Ber),
        ok = file:write_file(filename:join(OutDir, Name ++ ".version"), integer_to_list(V)),
        lists:foreach(
          fun({Ext, Mod}) ->
                  case catch Mod:encode_message(?CONF, V, MB) of
                      {ok, Out} ->
                          ok = file:write_file(filename:join(OutDir, Name ++ Ext), Out);
                      Other ->
                          line([Name, "noenc", atom_to_list(Mod), flat(Other)])
                  end
          end,
          [{".pretty.txt", megaco_pretty_text_encoder},
           {".compact.txt", megaco_compact_text_encoder}]),
        line([Name, "ok", integer_to_list(V)])
    catch
        throw:{Stage, E} -> line([Name, "error", atom_to_list(Stage), flat(E)]);
        C:R -> line([Name, "error", "decode", flat({C, R})])
    end.

normalise({'AuditDescriptor', Tokens, Props}) when is_list(Tokens) ->
    {'AuditDescriptor', lists:sort(Tokens), normalise(Props)};
normalise({'AuditDescriptor', Tokens}) when is_list(Tokens) -> % v1 record
    {'AuditDescriptor', lists:sort(Tokens)};
normalise(T) when is_tuple(T) ->
    list_to_tuple([normalise(X) || X <- tuple_to_list(T)]);
normalise(L) when is_list(L) ->
    [normalise(X) || X <- L];
normalise(X) ->
    X.

%% first_difference finds the first place where two terms differ and
%% shows both there.
first_difference(A, B) when is_tuple(A), is_tuple(B), tuple_size(A) =:= tuple_size(B) ->
    first_difference(tuple_to_list(A), tuple_to_list(B));
first_difference([X | As], [X | Bs]) ->
    first_difference(As, Bs);
first_difference([A | _], [B | _]) when is_tuple(A); is_list(A) ->
    first_difference(A, B);
first_difference(A, B) ->
    flat(io_lib:format("reference ~0P, ours ~0P", [A, 12, B, 12])).

flat(T) when is_list(T) ->
    try lists:flatten(T) of
        L -> case io_lib:printable_list(L) of
                 true -> L;
                 false -> lists:flatten(io_lib:format("~0P", [T, 30]))
             end
    catch _:_ -> lists:flatten(io_lib:format("~0P", [T, 30]))
    end;
flat(T) ->
    lists:flatten(io_lib:format("~0P", [T, 30])).

line(Fields) ->
    io:format("~ts~n", [lists:join("\t", [escape(F) || F <- Fields])]).

escape(S) ->
    [case C of $\t -> $\s; $\n -> $\s; $\r -> $\s; _ -> C end || C <- S].
