#!/usr/bin/env escript
%% -*- erlang -*-
%%! -noshell +sbwt none +sbwtdcpu none +sbwtdio none
%%
%% Times Erlang/OTP megaco's codecs over a corpus directory the way OTP's
%% megaco_codec_meas does (lib/megaco/examples/meas): for each codec
%% configuration and each message, the message's own encoding in that
%% codec is version-detected, decoded and re-encoded; then decode of that
%% encoding and encode of the decoded message are timed, each in a fresh
%% process after a warm-up. Per configuration: the mean encoded size and
%% the mean over messages of the per-message mean encode and decode time.
%%
%% The configurations are those of megaco_codec_meas:
%%   pretty pretty_flex compact compact_flex per per_native ber ber_native
%%   erl_dist erl_dist_mc erl_dist_compressed erl_dist_mc_compressed
%% (_flex: megaco_flex_scanner:start() config; _mc: megaco_compressed;
%% _compressed: compressed). Each codec's input is the corpus file of the
%% message in that encoding (<msg>.pretty.txt, .compact.txt, .ber, .per);
%% erl_dist's is made from the decoded pretty text (as
%% megaco_codec_transform does), or from the BER file without one.
%%
%% usage:
%%   codec_bench.escript CORPUS_DIR [SECONDS_PER_MESSAGE_AND_OP] [CONFIG...]
%%       one tab-separated line per configuration:
%%       otp CONFIG MESSAGES MEAN_SIZE ENCODE_US DECODE_US
%%   codec_bench.escript --serve CORPUS_DIR
%%       a line protocol on stdin/stdout, used by `megaco bench --otp` to
%%       interleave OTP's measurement rounds with its own:
%%         <- hello OTP_RELEASE MEGACO_VSN ERTS_VSN MESSAGES SCHEDULERS FLEX
%%         -> configs
%%         <- config NAME ok | config NAME skip REASON ... end
%%         -> measure CONFIG SECONDS
%%         <- m MSG VERSION SIZE ENC_NS ENC_COUNT DEC_NS DEC_COUNT
%%            | skip MSG REASON ... end CONFIG
%%         -> quit
-mode(compile).

main(["--serve", Dir]) ->
    serve(Dir);
main([Dir]) ->
    main([Dir, "0.002"]);
main([Dir, Secs | Configs0]) ->
    Configs = case Configs0 of
                  [] -> configs();
                  _ -> Configs0
              end,
    Budget = to_float(Secs),
    case [C || C <- Configs, not lists:member(C, configs())] of
        [] -> ok;
        Bad ->
            io:format(standard_error, "unknown configs ~s (known: ~s)~n",
                      [lists:join(" ", Bad), lists:join(" ", configs())]),
            halt(2)
    end,
    Msgs = load(Dir),
    lists:foreach(fun(C) -> batch(C, Msgs, Budget) end, Configs);
main(_) ->
    io:format(standard_error,
              "usage: codec_bench.escript CORPUS_DIR [SECONDS] [CONFIG...]~n"
              "       codec_bench.escript --serve CORPUS_DIR~n", []),
    halt(2).

configs() ->
    ["pretty", "pretty_flex", "compact", "compact_flex",
     "per", "per_native", "ber", "ber_native",
     "erl_dist", "erl_dist_mc", "erl_dist_compressed", "erl_dist_mc_compressed"].

%% config(Name) -> {Source, Module, ExtraConfig}
config("pretty") -> {pretty, megaco_pretty_text_encoder, []};
config("pretty_flex") -> {pretty, megaco_pretty_text_encoder, [flex]};
config("compact") -> {compact, megaco_compact_text_encoder, []};
config("compact_flex") -> {compact, megaco_compact_text_encoder, [flex]};
config("per") -> {per, megaco_per_encoder, []};
config("per_native") -> {per, megaco_per_encoder, [native]};
config("ber") -> {ber, megaco_ber_encoder, []};
config("ber_native") -> {ber, megaco_ber_encoder, [native]};
config("erl_dist") -> {erlang, megaco_erl_dist_encoder, []};
config("erl_dist_mc") -> {erlang, megaco_erl_dist_encoder, [megaco_compressed]};
config("erl_dist_compressed") -> {erlang, megaco_erl_dist_encoder, [compressed]};
config("erl_dist_mc_compressed") ->
    {erlang, megaco_erl_dist_encoder, [megaco_compressed, compressed]};
config(Name) -> throw({unknown_config, Name}).

%% The codec config as megaco_codec_meas builds it: [{version3,v3} | Conf],
%% the flex scanner started once and kept for the run.
codec_config(Extra) ->
    [{version3, v3} | [case C of
                           flex -> flex_config();
                           _ -> C
                       end || C <- Extra]].

flex_config() ->
    case get(flex) of
        undefined ->
            R = case catch megaco_flex_scanner:start() of
                    {ok, PortOrPorts} -> {ok, {flex, PortOrPorts}};
                    Other -> {error, Other}
                end,
            put(flex, R),
            flex_config();
        {ok, C} -> C;
        {error, E} -> throw({flex_scanner_unavailable, E})
    end.

flex_status() ->
    case catch megaco_flex_scanner:is_enabled() of
        true ->
            case catch megaco_flex_scanner:is_reentrant_enabled() of
                true -> "reentrant";
                _ -> "non-reentrant"
            end;
        _ -> "disabled"
    end.

%% ------------------------------------------------------------------
%% Corpus: [{Name, ManifestVersion, #{Source => Bin}}]

load(Dir) ->
    Files = lists:sort(filelib:wildcard(filename:join(Dir, "*.ber"))),
    Versions = manifest(filename:join(Dir, "MANIFEST.tsv")),
    [load_one(Dir, filename:basename(F, ".ber"), Versions) || F <- Files].

load_one(Dir, Name, Versions) ->
    Base = filename:join(Dir, Name),
    Read = fun(Ext) ->
                   case file:read_file(Base ++ Ext) of
                       {ok, B} -> [B];
                       _ -> []
                   end
           end,
    Srcs = maps:from_list([{S, B} || {S, Ext} <- [{pretty, ".pretty.txt"}, {compact, ".compact.txt"},
                                                  {ber, ".ber"}, {per, ".per"}],
                                     B <- Read(Ext)]),
    V = maps:get(Name, Versions, undefined),
    Srcs1 = case catch erlang_source(Srcs, V) of
                {ok, E} -> Srcs#{erlang => E};
                _ -> Srcs
            end,
    {Name, V, Srcs1}.

%% megaco_codec_transform: the erl_dist message is the erl_dist encoding of
%% the message decoded from the base (pretty) text.
erlang_source(#{pretty := P}, _) ->
    C = [{version3, v3}],
    {ok, V} = megaco_pretty_text_encoder:version_of(C, P),
    {ok, M} = megaco_pretty_text_encoder:decode_message(C, V, P),
    megaco_erl_dist_encoder:encode_message(C, V, M);
erlang_source(#{ber := B}, V0) ->
    C = [{version3, v3}],
    V = case megaco_ber_encoder:version_of(C, B) of
            {ok, V1} -> V1;
            _ -> V0
        end,
    {ok, M} = megaco_ber_encoder:decode_message(C, V, B),
    megaco_erl_dist_encoder:encode_message(C, V, M).

manifest(Path) ->
    case file:read_file(Path) of
        {ok, Text} ->
            Lines = tl(binary:split(Text, <<"\n">>, [global, trim_all])),
            maps:from_list([begin
                                [Name, V | _] = binary:split(L, <<"\t">>, [global]),
                                {binary_to_list(Name), binary_to_integer(V)}
                            end || L <- Lines]);
        _ ->
            #{}
    end.

%% ------------------------------------------------------------------
%% Measurement

%% measure(Config, Msgs, Budget) -> [{ok, Name, V, Size, EncNs, EncN, DecNs, DecN} | {skip, Name, Reason}]
measure(Name, Msgs, Budget) ->
    {Src, Mod, Extra} = config(Name),
    Conf = codec_config(Extra),
    [measure_msg(Src, Mod, Conf, M, Budget) || M <- Msgs].

measure_msg(Src, Mod, Conf, {Name, V0, Srcs}, Budget) ->
    try
        Bin0 = case maps:find(Src, Srcs) of
                   {ok, B} -> B;
                   error -> throw({no_source, Src})
               end,
        %% megaco_codec_meas:detect_version/4
        V = case catch Mod:version_of(Conf, Bin0) of
                {ok, V1} -> V1;
                _ when V0 =/= undefined -> V0;
                E -> throw({version_of, E})
            end,
        {ok, M} = Mod:decode_message(Conf, V, Bin0),
        {ok, Bin} = Mod:encode_message(Conf, V, M),
        %% megaco_codec_meas:do_measure/8: decode first, then encode of the
        %% decoded message.
        {DecNs, DecN} = time_op(fun() -> Mod:decode_message(Conf, V, Bin) end, Budget),
        {EncNs, EncN} = time_op(fun() -> Mod:encode_message(Conf, V, M) end, Budget),
        {ok, Name, V, iolist_size(Bin), EncNs, EncN, DecNs, DecN}
    catch
        throw:R -> {skip, Name, R};
        error:R -> {skip, Name, R};
        exit:R -> {skip, Name, R}
    end.

%% time_op(F, Seconds) -> {Nanoseconds, Calls}: in a fresh process (as
%% megaco_codec_meas:measure_codec/7 does), a warm-up of a fifth of the
%% budget estimates the cost of a call, then a counted loop of about
%% Seconds is timed as a whole.
time_op(F, Budget) ->
    {Pid, Ref} = spawn_monitor(fun() -> exit({result, timed(F, Budget)}) end),
    receive
        {'DOWN', Ref, process, Pid, {result, R}} -> R;
        {'DOWN', Ref, process, Pid, Other} -> throw({measure_failed, Other})
    end.

timed(F, Budget) ->
    BudgetNs = max(1, round(Budget * 1.0e9)),
    W0 = erlang:monotonic_time(nanosecond),
    WN = warm(F, W0 + BudgetNs div 5, 0),
    W1 = erlang:monotonic_time(nanosecond),
    PerCall = max(1, (W1 - W0) div WN),
    Count = max(1, BudgetNs div PerCall),
    T0 = erlang:monotonic_time(nanosecond),
    loop(F, Count),
    T1 = erlang:monotonic_time(nanosecond),
    {T1 - T0, Count}.

warm(F, Limit, N) ->
    {ok, _} = F(),
    case erlang:monotonic_time(nanosecond) >= Limit of
        true -> N + 1;
        false -> warm(F, Limit, N + 1)
    end.

loop(_, 0) -> ok;
loop(F, N) ->
    {ok, _} = F(),
    loop(F, N - 1).

%% ------------------------------------------------------------------
%% Batch mode

batch(Name, Msgs, Budget) ->
    Rows = [R || {ok, _, _, _, _, _, _, _} = R <- measure(Name, Msgs, Budget)],
    case length(Rows) of
        0 ->
            io:format("otp\t~s\t0\t-\t-\t-~n", [Name]);
        N ->
            Size = lists:sum([S || {ok, _, _, S, _, _, _, _} <- Rows]) / N,
            Enc = lists:sum([E / EN / 1000 || {ok, _, _, _, E, EN, _, _} <- Rows]) / N,
            Dec = lists:sum([D / DN / 1000 || {ok, _, _, _, _, _, D, DN} <- Rows]) / N,
            io:format("otp\t~s\t~b\t~.1f\t~.3f\t~.3f~n", [Name, N, Size, Enc, Dec])
    end.

%% ------------------------------------------------------------------
%% Serve mode

serve(Dir) ->
    ok = io:setopts(standard_io, [binary]),
    case code:ensure_loaded(megaco_encoder) of
        {module, _} -> ok;
        _ ->
            io:format("error\tthe Erlang/OTP megaco application is not installed~n"),
            halt(1)
    end,
    Msgs = load(Dir),
    _ = application:load(megaco),
    MV = megaco_vsn(),
    io:format("hello\t~s\t~s\t~s\t~b\t~b\t~s~n",
              [erlang:system_info(otp_release), MV, erlang:system_info(version),
               length(Msgs), erlang:system_info(schedulers_online), flex_status()]),
    serve_loop(Msgs).

megaco_vsn() ->
    case application:get_key(megaco, vsn) of
        {ok, V} -> V;
        _ -> "unknown"
    end.

serve_loop(Msgs) ->
    case io:get_line(standard_io, "") of
        eof -> halt(0);
        {error, _} -> halt(0);
        Line ->
            case string:lexemes(string:trim(binary_to_list(Line)), " \t") of
                ["quit"] ->
                    halt(0);
                ["configs"] ->
                    lists:foreach(fun(C) -> report_config(C, Msgs) end, configs()),
                    io:format("end~n");
                ["measure", C, Secs] ->
                    Results = try measure(C, Msgs, to_float(Secs))
                              catch throw:R -> [{skip, "*", R}]
                              end,
                    lists:foreach(fun report_result/1, Results),
                    io:format("end\t~s~n", [C]);
                Other ->
                    io:format("error\tunknown command ~0p~nend~n", [Other])
            end,
            serve_loop(Msgs)
    end.

report_config(C, Msgs) ->
    try
        {Src, Mod, Extra} = config(C),
        _ = codec_config(Extra),
        {module, Mod} = code:ensure_loaded(Mod),
        case [x || {_, _, #{Src := _}} <- Msgs] of
            [] -> throw({no_corpus_files_for, Src});
            _ -> ok
        end,
        io:format("config\t~s\tok~n", [C])
    catch
        _:R -> io:format("config\t~s\tskip\t~s~n", [C, one_line(R)])
    end.

report_result({ok, Name, V, Size, EncNs, EncN, DecNs, DecN}) ->
    io:format("m\t~s\t~b\t~b\t~b\t~b\t~b\t~b~n", [Name, V, Size, EncNs, EncN, DecNs, DecN]);
report_result({skip, Name, R}) ->
    io:format("skip\t~s\t~s~n", [Name, one_line(R)]).

one_line(T) ->
    S = lists:flatten(io_lib:format("~0p", [T])),
    S1 = [case Ch of $\t -> $\s; $\n -> $\s; _ -> Ch end || Ch <- S],
    lists:sublist(S1, 300).

to_float(S) ->
    case string:to_float(S) of
        {F, ""} -> F;
        _ -> float(list_to_integer(S))
    end.
