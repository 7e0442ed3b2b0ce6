#!/usr/bin/env escript
%% -*- erlang -*-
%%! -noshell
%% Asks Erlang/OTP megaco whether it accepts texts: the conformance tests
%% of the Go text decoder (internal/codec/text) compare its verdicts with
%% ours.
%%
%% usage:
%%   text_check.escript DIR NAME...
%%     For each NAME, decodes DIR/NAME.txt with megaco_compact_text_encoder
%%     (its parser reads pretty and compact alike) at the version
%%     version_of/2 reads, then, if that worked, encodes the term to BER;
%%     prints one line per text:
%%       NAME <TAB> ok
%%       NAME <TAB> error <TAB> decode|ber <TAB> reason

-define(CONF, [{version3, v3}]).

main([Dir | Names]) ->
    lists:foreach(fun(N) -> check(Dir, N) end, Names);
main(_) ->
    io:format(standard_error, "usage: text_check.escript DIR NAME...~n", []),
    halt(2).

check(Dir, Name) ->
    {ok, Bin} = file:read_file(filename:join(Dir, Name ++ ".txt")),
    Mod = megaco_compact_text_encoder,
    try Mod:version_of(?CONF, Bin) of
        {ok, V} ->
            case catch Mod:decode_message(?CONF, V, Bin) of
                {ok, M} ->
                    case catch megaco_ber_encoder:encode_message(?CONF, V, M) of
                        {ok, _} -> line([Name, "ok"]);
                        Err -> line([Name, "error", "ber", flat(Err)])
                    end;
                Err ->
                    line([Name, "error", "decode", flat(reason(Err))])
            end;
        Err ->
            line([Name, "error", "decode", flat(Err)])
    catch
        C:R -> line([Name, "error", "decode", flat({C, R})])
    end.

%% reason keeps the parser's reason and leaves out the token list.
reason({error, L}) when is_list(L) ->
    case lists:keyfind(reason, 1, L) of
        {reason, R} -> R;
        false -> L
    end;
reason(E) -> E.

flat(T) ->
    S = lists:flatten(io_lib:format("~0p", [T])),
    string:slice([case C of $\t -> $\s; $\n -> $\s; _ -> C end || C <- S], 0, 300).

line(Fields) ->
    io:format("~s~n", [lists:join("\t", Fields)]).
