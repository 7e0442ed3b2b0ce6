#!/usr/bin/env escript
%% -*- erlang -*-
%%! -noshell
%% Closed-loop Megaco traffic built on Erlang/OTP's own encoders, for
%% measuring what a middle process (`megaco proxy`, or the reference relay
%% here) costs per transaction (internal/proxy/otpe2e: TestOTPLoopCPU).
%% The peers use OTP's encoders and decoders for every message but not its
%% transaction layer (no retransmission timers, no pending): a loop of
%% Modify requests and their replies, as fast as the middle carries them.
%%
%% usage:
%%   megaco_loop.escript mgc T ENC LOCAL REMOTE SECONDS WINDOW
%%       UDP: bind LOCAL, send to REMOTE. TCP: listen on LOCAL; the loop
%%       starts when a connection comes. Keeps WINDOW Modify requests (v1)
%%       outstanding for SECONDS, decoding every reply, then prints
%%       RESULT ok transactions=N lost=L and exits.
%%   megaco_loop.escript mg T ENC LOCAL REMOTE
%%       UDP: bind LOCAL, answer each request to its sender. TCP: connect
%%       to REMOTE and answer on that connection. Decodes each request and
%%       encodes its reply; runs until its socket closes or 60 s of silence.
%%   megaco_loop.escript relay T MGCENC MGCLISTEN MGCPORT MGENC MGLISTEN MGPORT
%%       The reference transcoding relay: every message is decoded with
%%       OTP's decoder for the sender's encoding and encoded with OTP's
%%       encoder for the receiver's, then sent on (UDP: from the side's
%%       socket to the side's peer port; TCP: a connection accepted on
%%       MGLISTEN is paired with one dialled to MGCPORT).
%% T is udp or tcp, ENC pretty, compact or ber. Each role prints READY
%% once its sockets are open.

-module(megaco_loop).
-mode(compile).

-include_lib("megaco/include/megaco.hrl").
-include_lib("megaco/include/megaco_message_v1.hrl").

-export([main/1]).

-define(HOST, {127, 0, 0, 1}).
-define(SOCK, [binary, {active, true}, {recbuf, 1 bsl 20}, {sndbuf, 1 bsl 20}]).
-define(TCP, [{packet, tpkt}, {nodelay, true} | ?SOCK]).

main(["mgc", T, Enc, Local, Remote, Secs, Window]) ->
    Send = open(mgc, list_to_atom(T), int(Local), int(Remote)),
    C = codec(Enc),
    Deadline = erlang:monotonic_time(millisecond) + 1000 * int(Secs),
    W = int(Window),
    [Send(encode(C, request(Tid))) || Tid <- lists:seq(1, W)],
    {N, Lost} = mgc_loop(Send, C, W + 1, Deadline, 0, 0),
    io:format("RESULT ok transactions=~b lost=~b~n", [N, Lost]),
    halt(0);
main(["mg", T, Enc, Local, Remote]) ->
    Send = open(mg, list_to_atom(T), int(Local), int(Remote)),
    mg_loop(Send, codec(Enc));
main(["relay", T, MgcEnc, MgcListen, MgcPort, MgEnc, MgListen, MgPort]) ->
    relay(list_to_atom(T), codec(MgcEnc), int(MgcListen), int(MgcPort),
          codec(MgEnc), int(MgListen), int(MgPort));
main(_) ->
    io:format(standard_error, "usage: see the comment at the top of the script~n", []),
    halt(2).

int(S) -> list_to_integer(S).

codec("pretty") -> {megaco_pretty_text_encoder, []};
codec("compact") -> {megaco_compact_text_encoder, []};
codec("ber") -> {megaco_ber_encoder, []}.

encode({Mod, Conf}, Msg) ->
    {ok, B} = Mod:encode_message(Conf, 1, Msg),
    iolist_to_binary(B).

decode({Mod, Conf}, B) ->
    {ok, M} = Mod:decode_message(Conf, 1, B),
    M.

tpkt(B) -> [<<3, 0, (byte_size(B) + 4):16>>, B].

%% With {packet, tpkt} a packet comes with its header.
untpkt(<<3, 0, _:16, B/binary>>) -> B.

%% open readies the role's socket and returns its send function; READY
%% is printed once the socket is open (a TCP MGC: once it listens).
open(mgc, udp, Local, Remote) ->
    {ok, S} = gen_udp:open(Local, ?SOCK),
    ready(),
    fun(B) -> gen_udp:send(S, ?HOST, Remote, B) end;
open(mgc, tcp, Local, _) ->
    {ok, L} = gen_tcp:listen(Local, [{reuseaddr, true} | ?TCP]),
    ready(),
    {ok, S} = gen_tcp:accept(L, 60000),
    fun(B) -> gen_tcp:send(S, tpkt(B)) end;
open(mg, udp, Local, _) ->
    {ok, S} = gen_udp:open(Local, ?SOCK),
    ready(),
    S;
open(mg, tcp, _, Remote) ->
    {ok, S} = gen_tcp:connect(?HOST, Remote, ?TCP, 10000),
    ready(),
    fun(B) -> gen_tcp:send(S, tpkt(B)) end.

ready() -> io:format("READY~n").

%% recv is the next message: {Bin, Reply} where Reply sends back to its
%% sender (UDP) or is none.
recv(Timeout) ->
    receive
        {udp, S, IP, P, B} -> {B, fun(R) -> gen_udp:send(S, IP, P, R) end};
        {tcp, _, Pkt} -> {untpkt(Pkt), none};
        {tcp_closed, _} -> closed
    after Timeout -> timeout
    end.

mgc_loop(Send, C, Next, Deadline, N, Lost) ->
    case recv(1000) of
        {B, _} ->
            #'MegacoMessage'{} = decode(C, B),
            case erlang:monotonic_time(millisecond) < Deadline of
                true ->
                    Send(encode(C, request(Next))),
                    mgc_loop(Send, C, Next + 1, Deadline, N + 1, Lost);
                false ->
                    {N + 1, Lost}
            end;
        timeout -> % a request or its reply was lost: one more in its place
            case erlang:monotonic_time(millisecond) < Deadline of
                true ->
                    Send(encode(C, request(Next))),
                    mgc_loop(Send, C, Next + 1, Deadline, N, Lost + 1);
                false ->
                    {N, Lost}
            end;
        closed ->
            {N, Lost}
    end.

mg_loop(Sock, C) ->
    case recv(60000) of
        {B, Back} ->
            #'MegacoMessage'{mess = #'Message'{messageBody = {transactions, [{transactionRequest, R}]}}} = decode(C, B),
            Out = encode(C, reply(R#'TransactionRequest'.transactionId)),
            case Back of
                none -> Sock(Out);
                _ -> Back(Out)
            end,
            mg_loop(Sock, C);
        _ ->
            halt(0)
    end.

%% relay: the reference transcoding relay.
relay(udp, MgcC, MgcListen, MgcPort, MgC, MgListen, MgPort) ->
    {ok, A} = gen_udp:open(MgcListen, ?SOCK),
    {ok, B} = gen_udp:open(MgListen, ?SOCK),
    ready(),
    relay_udp(A, B, MgcC, MgcPort, MgC, MgPort);
relay(tcp, MgcC, _, MgcPort, MgC, MgListen, _) ->
    {ok, L} = gen_tcp:listen(MgListen, [{reuseaddr, true} | ?TCP]),
    ready(),
    {ok, Mg} = gen_tcp:accept(L, 60000),
    {ok, Mgc} = gen_tcp:connect(?HOST, MgcPort, ?TCP, 10000),
    relay_tcp(Mgc, Mg, MgcC, MgC).

relay_udp(A, B, MgcC, MgcPort, MgC, MgPort) ->
    receive
        {udp, A, _, _, Bin} -> gen_udp:send(B, ?HOST, MgPort, transcode(Bin, MgcC, MgC));
        {udp, B, _, _, Bin} -> gen_udp:send(A, ?HOST, MgcPort, transcode(Bin, MgC, MgcC))
    after 60000 -> halt(0)
    end,
    relay_udp(A, B, MgcC, MgcPort, MgC, MgPort).

relay_tcp(Mgc, Mg, MgcC, MgC) ->
    receive
        {tcp, Mgc, Pkt} -> gen_tcp:send(Mg, tpkt(transcode(untpkt(Pkt), MgcC, MgC)));
        {tcp, Mg, Pkt} -> gen_tcp:send(Mgc, tpkt(transcode(untpkt(Pkt), MgC, MgcC)));
        {tcp_closed, _} -> linger()
    after 60000 -> halt(0)
    end,
    relay_tcp(Mgc, Mg, MgcC, MgC).

%% linger keeps the relay's process a while after its peers leave, so
%% that its CPU time can still be read.
linger() ->
    timer:sleep(10000),
    halt(0).

transcode(Bin, From, To) -> encode(To, decode(From, Bin)).

%% The messages (v1 records).

tid() -> #megaco_term_id{id = ["00000001", "00000000", "00000001"]}.

mid() -> {ip4Address, #'IP4Address'{address = [124, 124, 124, 222], portNumber = 55555}}.

message(Body) ->
    #'MegacoMessage'{mess = #'Message'{version = 1, mId = mid(),
                                       messageBody = {transactions, [Body]}}}.

request(Tid) ->
    LC = #'LocalControlDescriptor'{streamMode = sendRecv,
                                   propertyParms = [#'PropertyParm'{name = "tdmc/gain", value = ["2"]}]},
    Ev = #'RequestedEvent'{pkgdName = "al/of", evParList = []},
    Media = {mediaDescriptor,
             #'MediaDescriptor'{streams = {multiStream,
                                           [#'StreamDescriptor'{streamID = 1,
                                                                streamParms = #'StreamParms'{localControlDescriptor = LC}}]}}},
    Cmd = #'CommandRequest'{command = {modReq, #'AmmRequest'{terminationID = [tid()],
                                                             descriptors = [Media,
                                                                            {eventsDescriptor,
                                                                             #'EventsDescriptor'{requestID = 2222,
                                                                                                 eventList = [Ev]}}]}}},
    message({transactionRequest,
             #'TransactionRequest'{transactionId = Tid,
                                   actions = [#'ActionRequest'{contextId = ?megaco_null_context_id,
                                                               commandRequests = [Cmd]}]}}).

reply(Tid) ->
    message({transactionReply,
             #'TransactionReply'{transactionId = Tid,
                                 transactionResult = {actionReplies,
                                                      [#'ActionReply'{contextId = ?megaco_null_context_id,
                                                                      commandReply = [{modReply, #'AmmsReply'{terminationID = [tid()]}}]}]}}}).
